// Bundles the dashboard's script (src/control/dashboard/ui/main.ts, plain TypeScript and DOM) with esbuild
// into src/control/dashboard/assets/app.js, which is committed so the server finds it when it runs from src/
// (tsx) without a build; scripts/build.mjs copies the assets into dist/. A test compares the committed file
// with a fresh bundle. `node scripts/build-dashboard.mjs` after changing the UI.
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const root = new URL('..', import.meta.url).pathname
/** Where the committed bundle lives. */
export const DASHBOARD_BUNDLE = `${root}src/control/dashboard/assets/app.js`
/** Where the docs page's committed bundle lives (served beside the dashboard's files). */
export const DOCS_BUNDLE = `${root}src/control/dashboard/assets/docs.js`

/** The dashboard's script, bundled (an ES module for current browsers, no source map, no external import). */
export function bundleDashboard() {
  return bundle(`${root}src/control/dashboard/ui/main.ts`, 'dashboard', 'src/control/dashboard/ui')
}

/** The docs page's script (src/control/docs/ui), bundled the same way. */
export function bundleDocs() {
  return bundle(`${root}src/control/docs/ui/main.ts`, 'docs page', 'src/control/docs/ui')
}

/** A page's script bundled for the browser (ES module, no source map, no external import); also the Secure Payment Page's. */
export async function bundle(entry, name, folder, script = 'scripts/build-dashboard.mjs') {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    charset: 'utf8',
    banner: {
      js: `// Request Sandbox ${name}: built from ${folder} by ${script}`,
    },
  })
  return `${result.outputFiles[0].text}`
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(DASHBOARD_BUNDLE, await bundleDashboard())
  writeFileSync(DOCS_BUNDLE, await bundleDocs())
}
