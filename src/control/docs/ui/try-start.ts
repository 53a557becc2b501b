// What an operation's try-it starts from: its path parameters' placeholders and its body. The docs page fills
// its form with it and test/control/docs-try-it.test.ts sends the same to prove every start is accepted (one
// function, so the page and the proof cannot drift apart).
import { exampleOf } from './example.ts'

// biome-ignore lint/suspicious/noExplicitAny: the document is read as untyped JSON
type Json = Record<string, any>

/** The form an operation's try-it opens with. */
export interface TryItStart {
  /** a value for each path parameter: its documented example, else a placeholder id (answers 404) */
  path: Record<string, string>
  /** a value for each required query parameter, chosen as the path's */
  query: Record<string, string>
  /** the body editor's text (null when the operation takes no body, or is a GET: fetch sends none) */
  body: string | null
}

/** A parameter's starting value: its example, else a placeholder the sandbox answers 404 for. */
function startValue(p: Json): string {
  const schema = (p.schema ?? {}) as Json
  const example =
    p.example ??
    schema.example ??
    (Array.isArray(schema.examples) ? schema.examples[0] : undefined) ??
    (Array.isArray(schema.enum) ? schema.enum[0] : undefined)
  return example === undefined || example === null ? `example-${p.name}` : String(example)
}

/** The starting form of an OpenAPI operation (as /openapi.json serves it) under its method. */
export function tryItStart(op: Json, method: string): TryItStart {
  const path: Record<string, string> = {}
  const query: Record<string, string> = {}
  for (const p of (op.parameters ?? []) as Json[]) {
    if (p.in === 'path') path[p.name] = startValue(p)
    else if (p.in === 'query' && p.required) query[p.name] = startValue(p)
  }
  const media = op.requestBody?.content?.['application/json']
  // the document's example (the service's own, or the sandbox's where it refuses the service's: a call that
  // succeeds), else one built from the schema
  const body =
    op.requestBody && !/^(get|head)$/i.test(method)
      ? JSON.stringify(media?.example ?? exampleOf(media?.schema) ?? {}, null, 2)
      : null
  return { path, query, body }
}

/** The operation's path with its parameters filled in (encoded). */
export function fillPath(template: string, values: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_all, name: string) => encodeURIComponent(values[name] ?? ''))
}
