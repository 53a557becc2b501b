// The dashboard's files: the page itself (below) and the assets under ./assets/, built into the package:
// app.js is bundled from ./ui/ by scripts/build-dashboard.mjs (committed, and checked against a fresh bundle by a
// test), app.css and icon.svg are written by hand. scripts/build.mjs copies the folder into dist/, so the server
// finds it beside this module whether it runs from src/ (tsx) or from dist/. Read once, on first use.
import { staticAssets } from '../../contract/static-assets.ts'

/** A dashboard asset by file name, or null for a name that is not one. */
export const dashboardAsset = staticAssets(new URL('./assets/', import.meta.url), {
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
  'docs.js': 'text/javascript; charset=utf-8',
  'docs.css': 'text/css; charset=utf-8',
  'icon.svg': 'image/svg+xml',
})

/**
 * The page: a shell the script fills in. Its links are relative, so they follow the host (and path prefix)
 * the browser used; it loads nothing from outside the sandbox.
 */
export const DASHBOARD_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Request Sandbox</title>
<link rel="icon" href="__sandbox/dashboard/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="__sandbox/dashboard/app.css">
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<noscript><p class="panel">The dashboard needs JavaScript. The control API is at <code>/__sandbox/</code>.</p></noscript>
<div id="app"></div>
<script type="module" src="__sandbox/dashboard/app.js"></script>
</body>
</html>
`
