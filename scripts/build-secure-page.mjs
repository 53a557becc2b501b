// Bundles the Secure Payment Page's script (src/resources/secure-payments/page/ui/main.ts, plain TypeScript and
// DOM) with esbuild into src/resources/secure-payments/page/assets/page.js, committed so the server finds it when
// it runs from src/ (tsx) without a build; scripts/build.mjs copies the assets into dist/. A test compares the
// committed file with a fresh bundle. `node scripts/build-secure-page.mjs` after changing the UI.
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const root = new URL('..', import.meta.url).pathname
/** Where the committed bundle lives. */
export const SECURE_PAGE_BUNDLE = `${root}src/resources/secure-payments/page/assets/page.js`

/** The page's script, bundled (an ES module for current browsers, no source map, no external import). */
export async function bundleSecurePage() {
  const result = await build({
    entryPoints: [`${root}src/resources/secure-payments/page/ui/main.ts`],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    charset: 'utf8',
    banner: {
      js: '// Request Sandbox Secure Payment Page: built from src/resources/secure-payments/page/ui by scripts/build-secure-page.mjs',
    },
  })
  return `${result.outputFiles[0].text}`
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(SECURE_PAGE_BUNDLE, await bundleSecurePage())
}
