// Builds dist/: the library (src/ compiled by the native TypeScript compiler, with declarations, for the package's
// exports), the command (dist/cli.js: one ESM bundle of src/cli.ts with viem, zod and ws inside, which loads 4x
// faster than the same modules one file at a time), the contract artifacts, and the built-in scenarios
// (dist/scenarios/*.js, each bundled with the little it imports, so a started sandbox compiles nothing).
//
//   node scripts/build.mjs              everything (npm run build, prepack, the Dockerfile)
//   node scripts/build.mjs --cli        only what `request-sandbox` runs (bin/ calls this when dist/ is stale)
//   node scripts/build.mjs --if-stale   nothing when every output is newer than every input
//   node scripts/build.mjs --out <dir>  another folder directly under the root (the code finds fixtures/ one
//                                       level above its build folder); the jest example test uses its own
import { execFileSync } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { readFile } from 'node:fs/promises'
import { dirname, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

/** What a build reads: a change to any of these makes dist/ stale. */
const INPUTS = [
  'src',
  'scenarios',
  'package.json',
  'package-lock.json',
  'tsconfig.build.json',
  'scripts/build.mjs',
]

/** The newest modification time among the inputs (directories walked). */
export function newestInput() {
  const walk = (path) => {
    if (!existsSync(path)) return 0
    const stat = statSync(path)
    if (!stat.isDirectory()) return stat.mtimeMs
    let newest = stat.mtimeMs
    for (const entry of readdirSync(path)) newest = Math.max(newest, walk(`${path}/${entry}`))
    return newest
  }
  return Math.max(...INPUTS.map((input) => walk(`${root}${input}`)))
}

/** True when every output of this kind of build exists and is newer than every input. */
export function isFresh({ cli = false, out = 'dist' } = {}) {
  const outputs = cli ? ['cli.js'] : ['cli.js', 'index.js', 'index.d.ts']
  const oldest = Math.min(
    ...outputs.map((o) => (existsSync(`${root}${out}/${o}`) ? statSync(`${root}${out}/${o}`).mtimeMs : 0)),
  )
  return oldest > 0 && oldest >= newestInput()
}

/**
 * In every source file, `import.meta.url` becomes the URL the file has in the compiled build (dist/x/y.js), so
 * the paths the code builds from it (../../fixtures/, ./artifacts/, createRequire) work from inside the bundle.
 */
const moduleUrlPlugin = {
  name: 'module-url',
  setup(build) {
    build.onLoad({ filter: /\/src\/.*\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8')
      const compiled = `./${relative(`${root}src`, args.path).replace(/\.ts$/, '.js')}`
      const url = `new URL(${JSON.stringify(compiled)}, import.meta.url).href`
      return { loader: 'ts', contents: source.replaceAll('import.meta.url', url) }
    })
  },
}

/** Builds (`cli`: only the command's bundle, artifacts and scenarios) into `out`. */
export async function build({ cli = false, out = 'dist' } = {}) {
  if (!/^[\w-]+$/.test(out)) throw new Error('--out takes a folder name directly under the repository root')
  const { build: esbuild } = await import('esbuild')
  const { bundleDashboard, bundleDocs } = await import('./build-dashboard.mjs')
  const { bundlePage, RESOURCE_PAGES } = await import('./build-pages.mjs')
  const dist = `${root}${out}`
  if (!cli) {
    // docs/llms.txt from README.md and docs/ (the package ships it; /llms.txt serves it). The Docker image's build
    // stage has neither: its runtime stage copies docs/ with the committed file, which a test holds fresh
    if (existsSync(`${root}README.md`)) {
      const { renderLlmsTxt } = await import('./llms-txt.mjs')
      const llms = `${root}docs/llms.txt`
      const fresh = renderLlmsTxt()
      if (!existsSync(llms) || readFileSync(llms, 'utf8') !== fresh) writeFileSync(llms, fresh)
    }
    rmSync(dist, { recursive: true, force: true })
    execFileSync(
      process.execPath,
      [`${root}node_modules/typescript/bin/tsc`, '-p', `${root}tsconfig.build.json`, '--outDir', dist],
      { stdio: 'inherit' },
    )
  }
  const scenarios = readdirSync(`${root}scenarios`).filter((f) => f.endsWith('.ts'))
  const common = {
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    write: false,
  }
  const [command, scenarioModules] = await Promise.all([
    esbuild({
      ...common,
      entryPoints: [`${root}src/cli.ts`],
      outfile: `${dist}/cli.js`,
      // loaded only when used (Express by createApp, @msw/data on a first query, faker by a first seed, tsx for
      // user scenarios in TypeScript), or optional: left as imports
      external: [
        'express',
        'msw',
        'msw/*',
        '@msw/data',
        '@faker-js/faker',
        '@faker-js/faker/*',
        'tsx',
        'tsx/*',
        // a native module (its platform package is required at run time); loaded only with --state-dir
        'libsql',
        // the OpenTelemetry SDK, imported only when OTEL_EXPORTER_OTLP_ENDPOINT is set (src/telemetry/); its API
        // (a no-op until the SDK registers) is bundled: the two copies share one global registration
        '@opentelemetry/sdk-trace',
        '@opentelemetry/resources',
        '@opentelemetry/context-async-hooks',
        '@opentelemetry/core',
        '@opentelemetry/exporter-trace-otlp-*',
      ],
      // the bundled CommonJS (ws) calls require
      banner: {
        js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);",
      },
      plugins: [moduleUrlPlugin],
    }),
    // scenarios import defineScenario (and types) from ../src: bundled with it, packages left as imports
    esbuild({
      ...common,
      entryPoints: scenarios.map((file) => `${root}scenarios/${file}`),
      outdir: `${dist}/scenarios`,
      packages: 'external',
      plugins: [moduleUrlPlugin],
    }),
  ])
  // Every file is written whole or not at all (written beside, then renamed): processes started while another
  // one builds (tests spawning the command in parallel) never read half a file.
  const copied = (from, to) =>
    readdirSync(`${root}${from}`).map((name) => ({
      path: `${dist}/${to}/${name}`,
      contents: readFileSync(`${root}${from}/${name}`),
    }))
  const artifacts = copied('src/chain/artifacts', 'chain/artifacts')
  // the dashboard's and the docs page's files, their scripts bundled afresh from src/control/{dashboard,docs}/ui
  const dashboard = copied('src/control/dashboard/assets', 'control/dashboard/assets').filter(
    (f) => !f.path.endsWith('/app.js') && !f.path.endsWith('/docs.js'),
  )
  dashboard.push({ path: `${dist}/control/dashboard/assets/app.js`, contents: await bundleDashboard() })
  dashboard.push({ path: `${dist}/control/dashboard/assets/docs.js`, contents: await bundleDocs() })
  // each resource page's files, its script bundled afresh from src/resources/<resource>/page/ui
  const pages = []
  for (const resource of Object.keys(RESOURCE_PAGES)) {
    const folder = `resources/${resource}/page/assets`
    pages.push(...copied(`src/${folder}`, folder).filter((f) => !f.path.endsWith('/page.js')))
    pages.push({ path: `${dist}/${folder}/page.js`, contents: await bundlePage(resource) })
  }
  const files = [...artifacts, ...dashboard, ...pages, ...scenarioModules.outputFiles, ...command.outputFiles]
  for (const file of files) {
    mkdirSync(dirname(file.path), { recursive: true })
    const temporary = `${file.path}.${process.pid}.tmp`
    writeFileSync(temporary, file.contents)
    renameSync(temporary, file.path)
  }
  const built = new Set(scenarioModules.outputFiles.map((f) => f.path))
  for (const name of readdirSync(`${dist}/scenarios`))
    if (!built.has(`${dist}/scenarios/${name}`)) rmSync(`${dist}/scenarios/${name}`, { force: true })
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2)
  const flag = args.indexOf('--out')
  const options = { cli: args.includes('--cli'), out: flag >= 0 ? args[flag + 1] : 'dist' }
  if (!(args.includes('--if-stale') && isFresh(options))) await build(options)
}
