// `npm run lint` (and so `npm test`) runs this: the dependency rules of ARCHITECTURE.md, checked on every import of
// src/ and scenarios/, type-only imports included. It fails on an import cycle and on an import a folder's rule forbids,
// and on the shape rules of scripts/architecture-shape.mjs (file length, resource doors, template and pages, names, module state).
// Usage: node scripts/check-architecture.mjs [--quiet] [--root DIR]
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import {
  ALLOW_LISTS,
  ambiguousNames,
  innerImports,
  longFiles,
  MAX_LINES,
  moduleState,
  templateGaps,
} from './architecture-shape.mjs'

const defaultRoot = resolve(dirname(new URL(import.meta.url).pathname), '..')

/**
 * Who may import whom. A file's layer is the first rule whose `from` matches its path (relative to the root, with /).
 * `allow` lists what it may import inside src/: a path prefix, or a function of (importer, target) for the finer rules.
 * Anything outside src/ (packages, fixtures, node:*) is not checked here.
 */
const resourceOf = (path) => /^src\/resources\/([^/]+)\//.exec(path)?.[1]
const isPublicModuleOf = (target, folder) => target === `${folder}/index.ts`
export const rules = [
  {
    layer: 'contract',
    from: 'src/contract/',
    allow: ['src/contract/', 'src/tron/address.ts'],
    why: 'contract declares the shapes and services every layer shares; it imports no other layer but the Tron address codec (a leaf)',
  },
  {
    layer: 'chain',
    from: 'src/chain/',
    allow: ['src/contract/', 'src/chain/', 'src/tron/address.ts', 'src/tron/node/'],
    why: 'the chain owns everything on chain (the tron chain serves the Tron node of src/tron/node/) and knows nothing of tenants, control or resources',
  },
  {
    layer: 'tron',
    from: 'src/tron/',
    allow: ['src/contract/', 'src/chain/', 'src/tron/'],
    why: 'the Tron feature (address codec, the node over the tron chain, its routes) knows nothing of tenants, control or resources',
  },
  {
    layer: 'store',
    from: 'src/store/',
    allow: ['src/contract/', 'src/store/'],
    why: 'the store keeps generic tables and worlds; each resource declares its own tables',
  },
  {
    layer: 'resources',
    from: 'src/resources/',
    allow: [
      'src/contract/',
      'src/store/',
      'src/resources/services.ts',
      (_, target) => isPublicModuleOf(target, 'src/chain'),
      (_, target) => isPublicModuleOf(target, 'src/tron'),
      // the services declaration names each service by its owner's type (importing the owners' public modules
      // would close a cycle through their models, which import the declaration)
      (importer, target) => importer === 'src/resources/services.ts' && resourceOf(target) !== undefined,
      (importer, target) =>
        importer === 'src/resources/services.ts' && isPublicModuleOf(target, 'src/webhooks'),
      (importer, target) => resourceOf(importer) !== undefined && resourceOf(importer) === resourceOf(target),
      (_, target) =>
        resourceOf(target) !== undefined && isPublicModuleOf(target, `src/resources/${resourceOf(target)}`),
    ],
    why: "a resource uses contract, the store, the services declaration (resources/services.ts, which also names the webhook port of src/webhooks/index.ts), the chain's and Tron's public modules (src/chain/index.ts, src/tron/index.ts) and other resources' public modules (index.ts) only",
  },
  {
    layer: 'transports',
    from: 'src/transports/',
    allow: ['src/contract/', 'src/transports/'],
    why: 'a transport turns HTTP or MSW into neutral requests and back; it never reaches a resource',
  },
  {
    layer: 'events',
    from: 'src/events/',
    allow: [(_, target) => !target.startsWith('src/control/') && !target.startsWith('src/transports/')],
    why: 'the event bus and webhook delivery reach the control plane only through ports of src/contract/ (DeliveryJournal)',
  },
  {
    layer: 'pipeline',
    from: 'src/pipeline/',
    allow: [(_, target) => !target.startsWith('src/transports/')],
    why: 'the request pipeline (route, authenticate, middlewares, validate, handle, render) is what transports call: it never imports a transport',
  },
  {
    layer: 'webhooks',
    from: 'src/webhooks/',
    allow: [
      (_, target) =>
        !['src/control/', 'src/transports/', 'src/resources/', 'src/sandbox'].some((p) =>
          target.startsWith(p),
        ),
    ],
    why: 'the webhook feature (registry, delivery, chaos, listen, its routes) takes what it needs from the control plane through the context it is given; resources reach it through src/webhooks/index.ts',
  },
  {
    layer: 'telemetry',
    from: 'src/telemetry/',
    allow: ['src/contract/', 'src/telemetry/'],
    why: 'telemetry (OpenTelemetry traces) wraps the dispatcher and implements the tracing port of src/contract/tracing.ts; the sandbox imports its door, src/telemetry/index.ts',
  },
  // the control plane and the sandbox's assembly: anything above, never a transport (transports take the sandbox)
  ...['src/control/', 'src/auth/', 'src/harness/', 'src/sandbox.ts', 'src/sandbox/'].map((from) => ({
    layer: 'control',
    from,
    allow: [(_, target) => !target.startsWith('src/transports/')],
    why: 'the control plane, the harness and the sandbox are what transports take: they never import a transport',
  })),
  {
    layer: 'verify',
    from: 'src/verify/',
    allow: ['src/verify/', 'src/contract/', 'src/index.ts', 'src/cli/client.ts'],
    why: 'verify talks to a sandbox over HTTP or through the package door (src/index.ts), never to its rooms',
  },
  {
    layer: 'persistence',
    from: 'src/persistence/',
    allow: [(_, target) => !target.startsWith('src/transports/') && !target.startsWith('src/snapshots/')],
    why: "persistence (--state-dir) implements the worlds' lifecycle over the services; the control plane and the sandbox call it through src/persistence/index.ts",
  },
  {
    layer: 'snapshots',
    from: 'src/snapshots/',
    allow: [(_, target) => !target.startsWith('src/transports/')],
    why: "named snapshots save and restore a key's worlds over the services; the control plane calls them through src/snapshots/index.ts",
  },
  {
    layer: 'mcp',
    from: 'src/mcp/',
    allow: ['src/contract/', 'src/mcp/'],
    why: 'the MCP server reaches a sandbox only through its API (a dispatcher or HTTP), never its rooms',
  },
  {
    layer: 'llms',
    from: 'src/llms/',
    allow: ['src/contract/', 'src/llms/'],
    why: "/llms.txt serves the package's own documents: it needs the contract's route declaration only",
  },
  {
    layer: 'claimable',
    from: 'src/claimable/',
    allow: [(_, target) => !target.startsWith('src/transports/')],
    why: 'claimable sandboxes are part of the control plane a server installs: never a transport',
  },
  {
    layer: 'scenarios',
    from: 'scenarios/',
    allow: ['src/control/scenarios/define.ts'],
    why: 'built-in scenarios use defineScenario and the seed API they are given, never the rest of src/',
  },
]

function walk(folder, found = [], tests = false) {
  try {
    statSync(folder)
  } catch {
    return found
  }
  for (const name of readdirSync(folder)) {
    const path = join(folder, name)
    if (statSync(path).isDirectory()) {
      if (name !== 'node_modules' && name !== 'artifacts') walk(path, found, tests)
    } else if (/\.(ts|mts|mjs|js)$/.test(name) && (tests || !/\.test\.ts$/.test(name))) {
      found.push(path)
    }
  }
  return found
}

const importPattern =
  /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[\w*${}\s,]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g

function stripComments(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"\\])\/\/.*$/gm, '$1')
}

/** The project files each file imports (relative specifiers only), type-only imports included. */
export function importGraph(root, files) {
  const graph = new Map()
  for (const file of files) {
    const text = stripComments(readFileSync(file, 'utf8'))
    const targets = new Set()
    for (const match of text.matchAll(importPattern)) {
      const specifier = match[1] ?? match[2]
      if (!specifier?.startsWith('.')) continue
      targets.add(
        relative(root, resolve(dirname(file), specifier))
          .split(sep)
          .join('/'),
      )
    }
    graph.set(relative(root, file).split(sep).join('/'), [...targets])
  }
  return graph
}

/** Every cycle of the graph (strongly connected components of more than one file, or a file importing itself). */
export function cycles(graph) {
  let index = 0
  const indices = new Map()
  const low = new Map()
  const stack = []
  const onStack = new Set()
  const found = []
  const visit = (node) => {
    indices.set(node, index)
    low.set(node, index)
    index++
    stack.push(node)
    onStack.add(node)
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue
      if (!indices.has(next)) {
        visit(next)
        low.set(node, Math.min(low.get(node), low.get(next)))
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node), indices.get(next)))
      }
    }
    if (low.get(node) === indices.get(node)) {
      const component = []
      let member
      do {
        member = stack.pop()
        onStack.delete(member)
        component.push(member)
      } while (member !== node)
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort())
    }
  }
  for (const node of graph.keys()) if (!indices.has(node)) visit(node)
  return found
}

/** The feature folders: another room of src/ imports only their index.ts (resources: scripts/architecture-shape.mjs). */
export const FEATURE_DOORS = [
  'src/webhooks/',
  'src/tron/',
  'src/persistence/',
  'src/snapshots/',
  'src/pipeline/',
  'src/verify/',
  'src/mcp/',
  'src/claimable/',
  'src/llms/',
  'src/telemetry/',
]
/** Imports of a feature's inner file that its door cannot carry, each `importer prefix -> target prefix` with why. */
export const DOOR_EXCEPTIONS = [
  {
    from: ['src/contract/', 'src/chain/'],
    to: 'src/tron/address.ts',
    why: 'the Tron address codec is a leaf the shared shapes and the chain use (the door imports the chain)',
  },
  {
    from: ['src/chain/'],
    to: 'src/tron/node/',
    why: 'the tron chain serves the Tron node (the door imports the chain)',
  },
  {
    from: ['src/control/services.ts'],
    to: 'src/snapshots/store.ts',
    why: "the control plane's services name the snapshot store's type (the door's snapshots.ts imports the services)",
  },
]
const doorRule = {
  layer: 'feature door',
  why: 'another room imports a feature folder through its index.ts only (ARCHITECTURE.md, the map): export it there',
}

/** Imports that break a folder's rule, or pass a feature's door: `{importer, target, rule}`. */
export function violations(graph) {
  const found = []
  for (const [importer, targets] of graph) {
    const rule = rules.find((r) => importer.startsWith(r.from))
    for (const target of targets) {
      if (!target.startsWith('src/')) continue
      const allowed =
        !rule || rule.allow.some((a) => (typeof a === 'string' ? target.startsWith(a) : a(importer, target)))
      if (!allowed) found.push({ importer, target, rule })
      else if (passesDoor(importer, target)) found.push({ importer, target, rule: doorRule })
    }
  }
  return found
}

function passesDoor(importer, target) {
  const feature = FEATURE_DOORS.find((folder) => target.startsWith(folder))
  if (!feature || importer.startsWith(feature) || target === `${feature}index.ts`) return false
  return !DOOR_EXCEPTIONS.some(
    (e) => e.from.some((prefix) => importer.startsWith(prefix)) && target.startsWith(e.to),
  )
}

/**
 * Checks one tree (the project's root by default): its import graph, cycles and forbidden imports, then the shape
 * rules (tests count for the resource doors too) against `lists` (the allow-lists of scripts/architecture-shape.mjs).
 * `stale` says which allow-list entries no longer match anything.
 */
export function checkTree(root = defaultRoot, lists = ALLOW_LISTS) {
  const files = [...walk(join(root, 'src')), ...walk(join(root, 'scenarios'))]
  const graph = importGraph(root, files)
  const tests = [...walk(join(root, 'src'), [], true), ...walk(join(root, 'test'), [], true)].filter((f) =>
    /\.test\.ts$|^test/.test(relative(root, f)),
  )
  const doors = innerImports(new Map([...graph, ...importGraph(root, tests)]), lists)
  const long = longFiles(root, lists)
  const template = templateGaps(root, lists)
  const state = moduleState(root, lists)
  return {
    graph,
    loops: cycles(graph),
    broken: violations(graph),
    tooLong: long.found,
    innerImports: doors.found,
    templateGaps: template.found,
    moduleState: state.found,
    names: ambiguousNames(root),
    stale: [...long.stale, ...doors.stale, ...template.stale, ...state.stale],
  }
}

/** What a check found, one message each, as the lint prints them. */
export function problems(found) {
  const errors = []
  for (const loop of found.loops) {
    errors.push(`import cycle (type imports count) through ${loop.length} files:\n  ${loop.join('\n  ')}`)
  }
  for (const { importer, target, rule } of found.broken) {
    errors.push(`${importer} imports ${target}: ${rule.why} (ARCHITECTURE.md, dependency rules)`)
  }
  for (const { file, lines } of found.tooLong) {
    errors.push(`${file} has ${lines} lines, over ${MAX_LINES}: split it into files that do one job each`)
  }
  for (const { importer, target, resource } of found.innerImports) {
    errors.push(
      `${importer} imports ${target}, an inner file of resource ${resource}: import src/resources/${resource}/index.ts (export it there)`,
    )
  }
  for (const { resource, missing } of found.templateGaps) {
    errors.push(
      `src/resources/${resource}/ misses its template's ${missing.join(', ')} (ARCHITECTURE.md, resources)`,
    )
  }
  for (const { file, name, kind } of found.moduleState) {
    errors.push(
      `${file} keeps module-level state in \`${name}\` (${kind}): keep it in a world or a service, or list it with why in ALLOWED_MODULE_STATE (scripts/architecture-shape.mjs)`,
    )
  }
  for (const file of found.names) {
    errors.push(
      `${file}: \`state.ts\` says nothing of what a module holds, so no module takes the name; name it for what it holds (a resource's tables: tables.ts)`,
    )
  }
  return [...errors, ...found.stale]
}

function main() {
  const rootArg = process.argv.indexOf('--root')
  const found = checkTree(rootArg > 0 ? resolve(process.argv[rootArg + 1]) : defaultRoot)
  const errors = problems(found)
  for (const error of errors) console.error(error)
  if (errors.length) {
    console.error(`architecture check failed: ${errors.length} problem(s) in ${found.graph.size} files`)
    process.exit(1)
  }
  if (!process.argv.includes('--quiet')) {
    console.log(
      `architecture check: ${found.graph.size} files, no import cycle, no forbidden import, no file over ${MAX_LINES} lines, every resource and feature folder by its door, every resource on its template, no unlisted module state`,
    )
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) main()
