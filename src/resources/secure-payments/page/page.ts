// The Secure Payment Page: a shell the script fills in, and its assets under ./assets/ (page.js bundled from
// ./ui/ by scripts/build-pages.mjs and committed, checked against a fresh bundle by a test; page.css and
// icon.svg written by hand). scripts/build.mjs copies the folder into dist/. It loads nothing from outside the
// sandbox: the payer's wallet is window.ethereum (pointed at the sandbox's /rpc) or the built-in test wallet.
import { staticAssets } from '../../../contract/static-assets.ts'

/** A page asset by file name, or null for a name that is not one. */
export const securePageAsset = staticAssets(new URL('./assets/', import.meta.url), {
  'page.js': 'text/javascript; charset=utf-8',
  'page.css': 'text/css; charset=utf-8',
  'icon.svg': 'image/svg+xml',
})

/** The page (relative asset links: they follow the host and prefix the browser used). */
export const SECURE_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Secure payment · Request Sandbox</title>
<link rel="icon" href="secure-payment/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="secure-payment/page.css">
</head>
<body>
<noscript><p class="card">This page needs JavaScript to talk to your wallet.</p></noscript>
<main id="app" class="shell" aria-live="polite"></main>
<script type="module" src="secure-payment/page.js"></script>
</body>
</html>
`
