// Bundles the script of each page a resource serves (src/resources/<resource>/page/ui/main.ts, plain TypeScript and
// DOM) with esbuild into src/resources/<resource>/page/assets/page.js, committed so the server finds it when it runs
// from src/ (tsx) without a build; scripts/build.mjs copies each page's assets into dist/. A test beside each page
// compares the committed file with a fresh bundle. `node scripts/build-pages.mjs` after changing a page's UI.
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { bundle } from './build-dashboard.mjs'

const root = new URL('..', import.meta.url).pathname

/** The resources that serve a page, with the name its bundle's banner gives. */
export const RESOURCE_PAGES = { 'secure-payments': 'Secure Payment Page', payers: 'agreement and KYC pages' }

/** Where a resource page's committed bundle lives. */
export const pageBundle = (resource) => `${root}src/resources/${resource}/page/assets/page.js`

/** A resource page's script, bundled as the dashboard's is. */
export function bundlePage(resource) {
  return bundle(
    `${root}src/resources/${resource}/page/ui/main.ts`,
    RESOURCE_PAGES[resource],
    `src/resources/${resource}/page/ui`,
    'scripts/build-pages.mjs',
  )
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const resource of Object.keys(RESOURCE_PAGES))
    writeFileSync(pageBundle(resource), await bundlePage(resource))
}
