// Loads the built-in scenarios (top-level scenarios/) and the user's (--scenarios <dir>). A scenario is only
// ever looked up by name in this registry, never by path: a name from a header cannot reach the file system.
// Files must sit directly in their folder (a symlink pointing outside is refused) and be named after the scenario.
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs'
import { basename, extname, join, sep } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { z } from 'zod'
import { WorldRulesSchema } from '../../contract/rules.ts'
import { CreateRequestBody } from '../../resources/requests/index.ts'
import type { ScenarioDefinition, SeededIds } from './define.ts'

/** Scenario names: lower-case words joined by dashes, at most 64 characters (no dots, no slashes). */
export const SCENARIO_NAME = /^(?=.{1,64}$)[a-z0-9]+(?:-[a-z0-9]+)*$/

/** The scenario every key starts in: an empty world without rules. */
export const DEFAULT_SCENARIO: ScenarioDefinition = {
  name: 'default',
  description: 'An empty world with no rules: the sandbox as it behaves without a scenario.',
  creates: {},
}

const Definition = z.object({
  name: z.string().regex(SCENARIO_NAME, 'lower-case words joined by dashes'),
  description: z.string().min(1),
  creates: z.record(z.string(), z.string()).optional(),
  rules: WorldRulesSchema.optional(),
  pending: z.string().min(1).optional(),
  seed: z.custom<NonNullable<ScenarioDefinition['seed']>>((v) => typeof v === 'function').optional(),
})

/** A JSON scenario: rules, and requests created through the request model (ids named by their keys). */
const JsonScenario = z
  .object({
    name: z.string(),
    description: z.string(),
    creates: z.record(z.string(), z.string()).optional(),
    rules: WorldRulesSchema.optional(),
    requests: z.record(z.string().regex(/^[A-Za-z][A-Za-z0-9]*$/), CreateRequestBody).optional(),
  })
  .strict()

const extensions = new Set(['.ts', '.mts', '.js', '.mjs', '.json'])

function fromJson(text: string, file: string): ScenarioDefinition {
  const parsed = JsonScenario.parse(JSON.parse(text))
  const requests = Object.entries(parsed.requests ?? {})
  const creates: Record<string, string> = { ...parsed.creates }
  for (const [key] of requests) {
    creates[key] ??= `request "${key}" declared in ${basename(file)}`
    creates[`${key}PaymentReference`] ??= `payment reference of request "${key}"`
  }
  return {
    name: parsed.name,
    description: parsed.description,
    creates,
    ...(parsed.rules ? { rules: parsed.rules } : {}),
    async seed(api) {
      const ids: SeededIds = {}
      for (const [key, body] of requests) {
        const record = await api.createRequest(body)
        ids[key] = record.requestId
        ids[`${key}PaymentReference`] = record.paymentReference
      }
      return ids
    },
  }
}

/**
 * A TypeScript module: imported as it is where the process already runs TypeScript (vitest, tsx: then it is
 * compiled once per process, not once per sandbox), else through tsx's importer, which compiles TypeScript
 * whether or not the process runs under tsx (compiled build, plain node).
 */
async function importTypeScript(url: string): Promise<{ default?: unknown }> {
  try {
    return (await import(url)) as { default?: unknown }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? ''
    // node without type stripping, or with it but not for this file's syntax or place
    if (
      !/^ERR_(UNKNOWN_FILE_EXTENSION|UNSUPPORTED_TYPESCRIPT_SYNTAX|UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING)$/.test(
        code,
      )
    )
      throw error
    return (await (await import('tsx/esm/api')).tsImport(url, import.meta.url)) as { default?: unknown }
  }
}

async function loadFile(file: string): Promise<ScenarioDefinition> {
  if (extname(file) === '.json')
    return Definition.parse(fromJson(readFileSync(file, 'utf8'), file)) as ScenarioDefinition
  const url = pathToFileURL(file).href
  const loaded = /\.m?ts$/.test(file)
    ? await importTypeScript(url)
    : ((await import(url)) as { default?: unknown })
  const definition = (loaded.default as { default?: unknown })?.default ?? loaded.default
  return Definition.parse(definition) as ScenarioDefinition
}

/** Reads every scenario file directly inside `dir`. */
export async function loadScenarioDir(dir: string): Promise<ScenarioDefinition[]> {
  const root = realpathSync(dir)
  const out: ScenarioDefinition[] = []
  for (const entry of readdirSync(root, { withFileTypes: true }).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    const ext = extname(entry.name)
    if (!extensions.has(ext) || /\.(test|spec|d)\.m?ts$/.test(entry.name) || entry.isDirectory()) continue
    const file = realpathSync(join(root, entry.name))
    if (!file.startsWith(root + sep)) throw new Error(`scenario file ${entry.name} points outside ${root}`)
    let definition: ScenarioDefinition
    try {
      definition = await loadFile(file)
    } catch (error) {
      const message = error instanceof z.ZodError ? z.prettifyError(error) : (error as Error).message
      throw new Error(`invalid scenario file ${file}: ${message}`)
    }
    if (basename(entry.name, ext) !== definition.name) {
      throw new Error(
        `scenario file ${file} declares "${definition.name}": name the file ${definition.name}${ext}`,
      )
    }
    out.push(definition)
  }
  return out
}

/**
 * The folder of the built-in scenarios: the top-level scenarios/ beside src/, or, when this module runs from the
 * compiled build, dist/scenarios/ (the same files transpiled by `npm run build`, so start-up compiles nothing).
 */
export const BUILT_IN_SCENARIOS = (() => {
  const compiled = fileURLToPath(new URL('../../scenarios/', import.meta.url))
  const inBuild = import.meta.url.endsWith('/control/scenarios/registry.js')
  return inBuild && existsSync(compiled)
    ? compiled
    : fileURLToPath(new URL('../../../scenarios/', import.meta.url))
})()

/** Every scenario a sandbox knows, by name. */
export class ScenarioRegistry {
  readonly #byName = new Map<string, ScenarioDefinition>([[DEFAULT_SCENARIO.name, DEFAULT_SCENARIO]])

  /** Adds scenarios; a name may be defined once, and must be a scenario name (`get` relies on it). */
  add(definitions: ScenarioDefinition[], origin: string): void {
    for (const definition of definitions) {
      if (typeof definition.name !== 'string' || !SCENARIO_NAME.test(definition.name)) {
        throw new Error(
          `scenario ${JSON.stringify(definition.name)} from ${origin}: a name is lower-case words joined by dashes, at most 64 characters`,
        )
      }
      if (this.#byName.has(definition.name)) {
        throw new Error(`scenario "${definition.name}" from ${origin} is already defined`)
      }
      this.#byName.set(definition.name, definition)
    }
  }

  /** The scenario with this name, if any (names that are not scenario names never match). */
  get(name: string): ScenarioDefinition | undefined {
    // only scenario names are ever stored (`add` refuses the others): no other string can match, and the length
    // bound keeps a long header from being hashed whole
    return name.length <= 64 ? this.#byName.get(name) : undefined
  }

  /** Every scenario, the default first, then by name. */
  all(): ScenarioDefinition[] {
    const [first, ...rest] = [...this.#byName.values()]
    return [first!, ...rest.sort((a, b) => a.name.localeCompare(b.name))]
  }

  /** Every name, in listing order. */
  names(): string[] {
    return this.all().map((s) => s.name)
  }
}

/** Loads the built-in scenarios and those of the user's folders. */
export async function loadScenarios(userDirs: readonly string[] = []): Promise<ScenarioRegistry> {
  const registry = new ScenarioRegistry()
  registry.add(await loadScenarioDir(BUILT_IN_SCENARIOS), 'the built-in scenarios')
  for (const dir of userDirs) registry.add(await loadScenarioDir(dir), dir)
  return registry
}
