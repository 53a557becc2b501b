// Bundles the Secure Payment Page's script (src/resources/secure-payments/page/ui/main.ts, plain TypeScript and
// DOM) with esbuild into src/resources/secure-payments/page/assets/page.js, committed so the server finds it when
// it runs from src/ (tsx) without a build; scripts/build.mjs copies the assets into dist/. A test compares the
// committed file with a fresh bundle. `node scripts/build-secure-page.mjs` after changing the UI.
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { bundle } from './build-dashboard.mjs'

const root = new URL('..', import.meta.url).pathname
/** Where the committed bundle lives. */
export const SECURE_PAGE_BUNDLE = `${root}src/resources/secure-payments/page/assets/page.js`

/** The page's script, bundled as the dashboard's is. */
export function bundleSecurePage() {
  return bundle(
    `${root}src/resources/secure-payments/page/ui/main.ts`,
    'Secure Payment Page',
    'src/resources/secure-payments/page/ui',
    'scripts/build-secure-page.mjs',
  )
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(SECURE_PAGE_BUNDLE, await bundleSecurePage())
}
