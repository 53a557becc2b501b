// The shape rules of `npm run lint` beside the dependency rules (scripts/check-architecture.mjs runs both): a file
// under src/ stays under MAX_LINES, another room imports a resource through its index.ts only, a resource folder
// has its template files, and no module keeps mutable state at top level unless ALLOWED_MODULE_STATE says why.
// Each allow-list below can only shrink: an entry that no longer matches anything is an error too.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, sep } from 'node:path'

export const MAX_LINES = 500

/** Files over MAX_LINES that nobody writes by hand (regenerate them, do not split them). */
export const GENERATED = [
  {
    pattern: /^src\/chain\/artifacts\/[^/]+\.json$/,
    why: 'compiled contracts and vendored Safe artifacts (npm run build:contracts)',
  },
  {
    pattern: /^src\/.*\/assets\/[^/]+\.js$/,
    why: 'page bundles built by esbuild from a ui/ folder (scripts/build-dashboard.mjs)',
  },
]

/** Hand-written files over MAX_LINES today, to split. Entries leave, none join (the architecture test pins the list). */
export const TO_SPLIT = ['src/control/dashboard/assets/app.css']

/**
 * Imports of a resource's inner file from outside the resource that are tolerated, each `importer -> target`: none.
 * An entry could only leave (an entry nothing matches fails), so this list stays empty.
 */
export const INNER_IMPORTS_TO_REMOVE = []

/**
 * Every resource folder has these (`index.ts` is the only file other rooms import); a resource that serves a page
 * has it in page/ (see pageGaps).
 */
export const TEMPLATE_FILES = ['index.ts', 'schema.ts', 'routes.ts', 'errors.ts']
/** The file of a resource that declares its tables (`defineState`): one name in every resource. */
export const TABLES_FILE = 'tables.ts'
/** Resource folders allowed to miss template files, with what they miss: none (an entry nothing matches fails). */
export const TEMPLATE_GAPS_TO_FILL = {}

/**
 * Module-level mutable bindings that are allowed, each `file: binding` with why. Anything else (a top-level `let`
 * or `var`, or a top-level `const` bound to a Map, Set, array or object that the module mutates) fails: a sandbox's
 * state lives in its worlds and services, so two sandboxes in one process never share it.
 */
export const ALLOWED_MODULE_STATE = {
  'src/contract/world.ts: nextSlot':
    'defineState numbers each declaration once, at import: the same for every sandbox',
  'src/contract/world.ts: declared':
    'the defineState declarations, filled at import: declarations, not a sandbox state',
  'src/contract/checksum.ts: cache': 'a bounded cache of a pure function (EIP-55 checksums)',
  'src/pipeline/validate.ts: passesEmpty':
    'which immutable query schemas pass an empty query unchanged (a pure fact of each schema, kept weakly)',
  'src/contract/keccak.ts: wasm': 'the keccak WebAssembly module, loaded once',
  'src/chain/safe.ts: loaded': 'the Safe artifacts, read once from disk',
  'src/sandbox/warm-chains.ts: idle':
    "the chains of this process's closed sandboxes kept for its next ones (reuseChains): one chain per test worker",
  'src/store/clock.ts: lastIsoMs': 'a memo of the last ISO date formatted (a pure function)',
  'src/store/clock.ts: lastIso': 'a memo of the last ISO date formatted (a pure function)',
  'src/control/docs/openapi.ts: officialReference': 'the official API reference, read once from disk',
  'src/control/fixtures/uploads.ts: loading': 'a WeakMap keyed by each sandbox: per-sandbox, gone with it',
  'src/persistence/statements.ts: prepared':
    'a WeakMap keyed by each state.db connection: the statements prepared on it, gone with it',
  'src/control/fixtures/yaml-thread.ts: yamlPath':
    "the YAML parser thread's own state (its module runs in a worker)",
  'src/control/fixtures/yaml-thread.ts: parsing':
    "the YAML parser thread's own state (its module runs in a worker)",
  'src/control/fixtures/yaml-thread.ts: parsingClaimed':
    "the YAML parser thread's own state (its module runs in a worker)",
  'src/resources/secure-payments/page-routes.ts: queues':
    'a WeakMap keyed by each live chain: per-chain, gone with it',
  'src/resources/secure-payments/test-wallet-sends.ts: records':
    'a WeakMap keyed by each live chain: per-chain, gone with it',
  'src/resources/secure-payments/tron-batch.ts: batchesInFlight':
    'a WeakMap keyed by each world: per-world, gone with it',
  'src/llms/routes.ts: index': 'docs/llms.txt, a file of the package, read once from disk',
  'src/llms/routes.ts: guides': 'the guides llms.txt names, files of the package, each read once from disk',
  'src/mcp/version.ts: known': "the package's version, read once from package.json",
  'src/cli.ts: phase': "the CLI process's own lifecycle (idle, starting, serving, stopping): one per process",
}
/** Code bundled for the browser: each page load has its own module instance, so a top-level binding is page state. */
export const BROWSER_CODE = /(^|\/)ui\//

/** The allow-lists above, as the checks take them (a test passes empty ones to check a scratch tree). */
export const ALLOW_LISTS = { TO_SPLIT, INNER_IMPORTS_TO_REMOVE, TEMPLATE_GAPS_TO_FILL, ALLOWED_MODULE_STATE }
export const NO_ALLOW_LISTS = {
  TO_SPLIT: [],
  INNER_IMPORTS_TO_REMOVE: [],
  TEMPLATE_GAPS_TO_FILL: {},
  ALLOWED_MODULE_STATE: {},
}

const TEXT = /\.(ts|mts|mjs|js|cjs|css|json|html|svg|md|sql|yaml)$/

function files(folder, found = [], { tests = true, text = TEXT } = {}) {
  if (!existsSync(folder)) return found
  for (const name of readdirSync(folder)) {
    const path = join(folder, name)
    if (statSync(path).isDirectory()) {
      if (name !== 'node_modules') files(path, found, { tests, text })
    } else if (text.test(name) && (tests || !/\.test\.ts$/.test(name))) {
      found.push(path)
    }
  }
  return found
}

const rel = (root, path) => relative(root, path).split(sep).join('/')
const countLines = (text) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0)

/** (a) Files under src/ longer than MAX_LINES, outside GENERATED and TO_SPLIT; and TO_SPLIT entries now short or gone. */
export function longFiles(root, { TO_SPLIT } = ALLOW_LISTS) {
  const found = []
  const long = new Set()
  for (const path of files(join(root, 'src'))) {
    const file = rel(root, path)
    const lines = countLines(readFileSync(path, 'utf8'))
    if (lines <= MAX_LINES || GENERATED.some((g) => g.pattern.test(file))) continue
    long.add(file)
    if (!TO_SPLIT.includes(file)) found.push({ file, lines })
  }
  const stale = TO_SPLIT.filter((file) => !long.has(file)).map(
    (file) =>
      `TO_SPLIT lists ${file}, which is no longer over ${MAX_LINES} lines (or is gone): remove the entry`,
  )
  return { found, stale }
}

const resourceOf = (path) => /^src\/resources\/([^/]+)\//.exec(path)?.[1]

/**
 * (b) Imports of a resource's inner file from outside that resource: `graph` maps each file (src/, scenarios/
 * and tests) to its project imports. resources/services.ts names each service by its owner's type, so it is exempt.
 */
export function innerImports(graph, { INNER_IMPORTS_TO_REMOVE } = ALLOW_LISTS) {
  const found = []
  const seen = new Set()
  for (const [importer, targets] of graph) {
    if (importer === 'src/resources/services.ts') continue
    for (const target of targets) {
      const resource = resourceOf(target)
      if (!resource || resourceOf(importer) === resource) continue
      if (target === `src/resources/${resource}/index.ts`) continue
      const pair = `${importer} -> ${target}`
      seen.add(pair)
      if (!INNER_IMPORTS_TO_REMOVE.includes(pair)) found.push({ importer, target, resource })
    }
  }
  const stale = INNER_IMPORTS_TO_REMOVE.filter((pair) => !seen.has(pair)).map(
    (pair) => `INNER_IMPORTS_TO_REMOVE lists ${pair}, which no longer happens: remove the entry`,
  )
  return { found, stale }
}

/** (c) Resource folders missing a template file, tables declared outside TABLES_FILE, a page served another way. */
export function templateGaps(root, { TEMPLATE_GAPS_TO_FILL } = ALLOW_LISTS) {
  const found = []
  const stale = []
  const folder = join(root, 'src', 'resources')
  const resources = existsSync(folder)
    ? readdirSync(folder).filter((name) => statSync(join(folder, name)).isDirectory())
    : []
  for (const name of resources) {
    const own = readdirSync(join(folder, name))
    const throws = files(join(folder, name), [], { tests: false, text: /\.ts$/ }).some((path) =>
      /\bthrow\s+new\b/.test(mask(readFileSync(path, 'utf8'))),
    )
    // errors.ts holds a resource's refusals: one that refuses nothing of its own (its schemas answer) has none
    const missing = TEMPLATE_FILES.filter((file) => !own.includes(file) && (file !== 'errors.ts' || throws))
    const operations = own.filter((file) => /\.ts$/.test(file) && !/\.test\.ts$/.test(file))
    if (!operations.some((file) => ![...TEMPLATE_FILES, TABLES_FILE].includes(file))) {
      missing.push('model.ts (or named operation files)')
    }
    for (const path of files(join(folder, name), [], { tests: false, text: /\.ts$/ })) {
      const file = rel(join(folder, name), path)
      if (file !== TABLES_FILE && /\bdefineState\s*\(/.test(mask(readFileSync(path, 'utf8')))) {
        missing.push(`${TABLES_FILE} (tables are declared in ${file})`)
      }
    }
    missing.push(...pageGaps(join(folder, name)))
    const allowed = TEMPLATE_GAPS_TO_FILL[name] ?? []
    const unexpected = missing.filter((m) => !allowed.includes(m))
    if (unexpected.length) found.push({ resource: name, missing: unexpected })
    for (const m of allowed.filter((m) => !missing.includes(m))) {
      stale.push(
        `TEMPLATE_GAPS_TO_FILL lists "${m}" for ${name}, which no longer misses it: remove the entry`,
      )
    }
  }
  for (const name of Object.keys(TEMPLATE_GAPS_TO_FILL).filter((n) => !resources.includes(n))) {
    stale.push(
      `TEMPLATE_GAPS_TO_FILL lists ${name}, which is no longer a folder of src/resources/: remove the entry`,
    )
  }
  return { found, stale }
}

const isTables = (file) => new RegExp(`^src/resources/[^/]+/${TABLES_FILE}$`).test(file)
/**
 * Module names kept for one meaning: TABLES_FILE is a resource's tables, and no module is `state.ts` (the word says
 * nothing of what a module holds).
 */
export const RESERVED_NAMES = { 'state.ts': () => false, [TABLES_FILE]: isTables }

/** (e) Modules under src/ named like a resource's tables file (or another reserved name) that are something else. */
export function ambiguousNames(root) {
  return files(join(root, 'src'), [], { tests: false, text: /\.(ts|mts|mjs|js)$/ })
    .map((path) => rel(root, path))
    .filter((file) => {
      const name = file.slice(file.lastIndexOf('/') + 1)
      return Object.hasOwn(RESERVED_NAMES, name) && !RESERVED_NAMES[name](file)
    })
}

/**
 * One way to serve a page: a resource builds its HTML in page/page.ts, answers it from page-routes.ts, and bundles
 * its page's script from page/ui/ into page/assets/page.js (scripts/build-pages.mjs, RESOURCE_PAGES).
 */
function pageGaps(folder) {
  const gaps = []
  for (const path of files(folder, [], { tests: false, text: /\.ts$/ })) {
    const file = rel(folder, path)
    if (file.startsWith('page/')) continue
    const text = readFileSync(path, 'utf8')
    if (/<!doctype html/i.test(text)) gaps.push(`page/page.ts (${file} builds a page)`)
    else if (file !== 'page-routes.ts' && /text\/html/.test(text))
      gaps.push(`page-routes.ts (${file} serves a page)`)
  }
  if (existsSync(join(folder, 'page', 'ui')) && !existsSync(join(folder, 'page', 'assets', 'page.js'))) {
    gaps.push('page/assets/page.js (the bundle of page/ui: scripts/build-pages.mjs)')
  }
  return gaps
}

/**
 * The text with every comment, string and template literal blanked (newlines kept), so what remains is code.
 * Template substitutions `${...}` stay code.
 */
export function mask(text) {
  let out = ''
  let i = 0
  const braces = [] // for each open `${`, the depth of braces inside it
  let depth = 0
  let last = '' // the last significant code character, to tell a regex literal from a division
  const blank = (s) => s.replace(/[^\n]/g, ' ')
  while (i < text.length) {
    const c = text[i]
    const next = text[i + 1]
    if (c === '/' && next === '/') {
      const end = text.indexOf('\n', i)
      const stop = end < 0 ? text.length : end
      out += blank(text.slice(i, stop))
      i = stop
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2)
      const stop = end < 0 ? text.length : end + 2
      out += blank(text.slice(i, stop))
      i = stop
    } else if (
      c === "'" ||
      c === '"' ||
      (c === '/' && (last === '' || /[(,=:[!&|?{};+\-*%<>~^]/.test(last)))
    ) {
      let j = i + 1
      let inClass = false
      while (j < text.length && text[j] !== '\n') {
        if (text[j] === '\\') j++
        else if (c === '/' && text[j] === '[') inClass = true
        else if (c === '/' && text[j] === ']') inClass = false
        else if (text[j] === c && !inClass) break
        j++
      }
      out += c + blank(text.slice(i + 1, j)) + (text[j] ?? '')
      i = j + 1
      last = c
    } else if (c === '`' || (c === '}' && braces.length && braces[braces.length - 1] === depth)) {
      if (c === '}') braces.pop()
      let j = i + 1
      while (j < text.length && text[j] !== '`' && !(text[j] === '$' && text[j + 1] === '{')) {
        if (text[j] === '\\') j++
        j++
      }
      out += c + blank(text.slice(i + 1, j))
      if (text[j] === '$') {
        out += '${'
        braces.push(depth)
        i = j + 2
        last = '{'
      } else {
        out += text[j] ?? ''
        i = j + 1
        last = '`'
      }
    } else {
      if (c === '{') depth++
      if (c === '}') depth--
      if (!/\s/.test(c)) last = c
      out += c
      i++
    }
  }
  return out
}

const MUTATORS = 'set|add|delete|clear|push|pop|shift|unshift|splice|sort|reverse|fill|copyWithin'

/** Whether masked `code` mutates the value bound to `name` (a method that changes it, or a write through it). */
function mutates(code, name) {
  const n = name.replace(/\$/g, '\\$')
  const at = `(?<![\\w$.])${n}`
  return [
    new RegExp(`${at}\\s*\\.\\s*(?:${MUTATORS})\\s*\\(`),
    new RegExp(
      `${at}(?:\\s*(?:\\.\\s*[\\w$]+|\\[[^\\]\\n]*\\]))+\\s*(?:[-+*/%&|^]|\\?\\?|\\|\\||&&|<<|>>)?=(?!=)`,
    ),
    new RegExp(`${at}(?:\\s*(?:\\.\\s*[\\w$]+|\\[[^\\]\\n]*\\]))+\\s*(?:\\+\\+|--)`),
    new RegExp(`(?:\\+\\+|--|\\bdelete\\s+)${n}\\s*[.[]`),
    new RegExp(`\\bObject\\.(?:assign|defineProperty|defineProperties|setPrototypeOf)\\(\\s*${n}\\b`),
  ].some((pattern) => pattern.test(code))
}

/** The module-level mutable bindings of one file's text: `let`/`var` at top level, mutated Map/Set/array/object consts. */
export function mutableBindings(text) {
  const code = mask(text)
  const found = []
  for (const match of code.matchAll(/^(?:export\s+)?(let|var)\s+([\w$]+|[{[][^=]*)/gm)) {
    for (const name of match[2].match(/[\w$]+/g) ?? []) found.push({ name, kind: match[1] })
  }
  const container =
    /^(?:export\s+)?const\s+([\w$]+)\s*(?::[^=]*)?=\s*(new\s+(?:Map|Set|WeakMap|WeakSet|Array)\b|\[|\{)/gm
  for (const match of code.matchAll(container)) {
    if (mutates(code, match[1])) found.push({ name: match[1], kind: 'mutated const' })
  }
  return found
}

/** (d) Module-level mutable bindings under src/ outside ALLOWED_MODULE_STATE and BROWSER_CODE. */
export function moduleState(root, { ALLOWED_MODULE_STATE } = ALLOW_LISTS) {
  const found = []
  const seen = new Set()
  for (const path of files(join(root, 'src'), [], { tests: false, text: /\.(ts|mts|mjs|js)$/ })) {
    const file = rel(root, path)
    if (BROWSER_CODE.test(file) || /\/assets\//.test(file)) continue
    for (const { name, kind } of mutableBindings(readFileSync(path, 'utf8'))) {
      const entry = `${file}: ${name}`
      seen.add(entry)
      if (!(entry in ALLOWED_MODULE_STATE)) found.push({ file, name, kind })
    }
  }
  const stale = Object.keys(ALLOWED_MODULE_STATE)
    .filter((entry) => !seen.has(entry))
    .map((entry) => `ALLOWED_MODULE_STATE lists ${entry}, which is no longer module state: remove the entry`)
  return { found, stale }
}
