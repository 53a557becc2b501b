// Validates sandbox responses against the real service's published OpenAPI documents (copies in
// test/fixtures/official/, with their source and date).
// Where a response has a schema, it is used (OpenAPI 3.0 `nullable` mapped to JSON Schema); where it only
// has examples, a schema is derived from them: the same keys with the same JSON types (either example fits).
import { readFileSync } from 'node:fs'
import { Ajv, type ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'
import { parse } from 'yaml'

type Json = Record<string, unknown>
const reference = new URL('../fixtures/official/', import.meta.url)

/** The two documents: FULL (v1+v2, 0.8.1) and V2 (0.13.0). */
export const documents = {
  full: parse(readFileSync(new URL('openapi-v1-v2.yaml', reference), 'utf8')) as Json,
  v2: JSON.parse(readFileSync(new URL('openapi-v2.json', reference), 'utf8')) as Json,
}
export type DocumentName = keyof typeof documents

function resolveRefs(node: unknown, doc: Json, seen = new Set<string>()): unknown {
  if (Array.isArray(node)) return node.map((n) => resolveRefs(n, doc, seen))
  if (!node || typeof node !== 'object') return node
  const obj = node as Json
  if (typeof obj.$ref === 'string') {
    const ref = obj.$ref
    if (seen.has(ref)) return {}
    const target = ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((acc, key) => (acc as Json)?.[key], doc)
    return resolveRefs(target, doc, new Set([...seen, ref]))
  }
  const out: Json = {}
  for (const [key, value] of Object.entries(obj)) {
    if (key === 'example' || key === 'examples' || key === 'description' || key === 'x-feature-flag') continue
    out[key] = resolveRefs(value, doc, seen)
  }
  // OpenAPI 3.0's boolean exclusiveMinimum (with minimum) is a number in JSON Schema 2020
  if (typeof out.exclusiveMinimum === 'boolean') {
    if (out.exclusiveMinimum && typeof out.minimum === 'number') out.exclusiveMinimum = out.minimum
    else delete out.exclusiveMinimum
    if (typeof out.exclusiveMinimum === 'number') delete out.minimum
  }
  if (out.nullable === true) {
    delete out.nullable
    if (typeof out.type === 'string') out.type = [out.type, 'null']
    else return { anyOf: [out, { type: 'null' }] }
    if (Array.isArray(out.enum)) out.enum = [...out.enum, null]
  }
  return out
}

function schemaFromExample(value: unknown): Json {
  if (value === null) return { type: 'null' }
  if (Array.isArray(value))
    return value.length ? { type: 'array', items: schemaFromExample(value[0]) } : { type: 'array' }
  if (typeof value === 'object') {
    const properties: Json = {}
    for (const [k, v] of Object.entries(value as Json)) properties[k] = schemaFromExample(v)
    return { type: 'object', properties, required: Object.keys(properties) }
  }
  if (typeof value === 'number') return { type: 'number' }
  return { type: typeof value }
}

const ajv = new Ajv({ strict: false, allErrors: true })
// formats the documents use (uri, uuid, email, date-time) are checked, not ignored
addFormats.default(ajv)
const cache = new Map<string, ValidateFunction | null>()

/** The validator of one documented response, or null when the document says nothing about its body. */
export function responseValidator(
  doc: DocumentName,
  method: string,
  path: string,
  status: number,
): ValidateFunction | null {
  const key = `${doc} ${method} ${path} ${status}`
  if (cache.has(key)) return cache.get(key)!
  const document = documents[doc]
  const operation = ((document.paths as Json)[path] as Json | undefined)?.[method.toLowerCase()] as
    | Json
    | undefined
  if (!operation) throw new Error(`${doc} documents no ${method} ${path}`)
  const response = (operation.responses as Json)[String(status)] as Json | undefined
  if (!response) throw new Error(`${doc} documents no ${status} for ${method} ${path}`)
  const content = (response.content as Json | undefined)?.['application/json'] as Json | undefined
  let schema: unknown = null
  if (content?.schema) schema = resolveRefs(content.schema, document)
  else if (content?.examples) {
    const examples = Object.values(content.examples as Json).map((e) => (e as Json).value)
    schema = { anyOf: examples.map(schemaFromExample) }
  } else if (content && 'example' in content) schema = schemaFromExample(content.example)
  const validator = schema ? ajv.compile(schema as Json) : null
  cache.set(key, validator)
  return validator
}

/** Throws with ajv's errors when `body` does not fit the documented response (no-op when nothing is documented). */
export function assertMatchesDocument(
  doc: DocumentName,
  method: string,
  path: string,
  status: number,
  body: unknown,
): boolean {
  const validate = responseValidator(doc, method, path, status)
  if (!validate) return false
  if (!validate(body)) {
    throw new Error(
      `${method} ${path} ${status} does not match ${doc}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 800)}`,
    )
  }
  return true
}

function withoutPath(schema: Json, path: string[]): void {
  if (schema.type === 'array') {
    withoutPath(schema.items as Json, path)
    return
  }
  const [head, ...rest] = path
  const properties = schema.properties as Json | undefined
  if (!head || !properties?.[head]) throw new Error(`the example has no ${path.join('.')}`)
  if (rest.length === 0) {
    delete properties[head]
    schema.required = (schema.required as string[]).filter((k) => k !== head)
  } else withoutPath(properties[head] as Json, rest)
}

/**
 * Throws when `body` does not have the shape of one named example of a documented response (same keys, same
 * JSON types). For responses whose schema contradicts its own examples (the V2 payout 201 requires
 * `requestId`, which the recurring example does not have). `except` lists dotted paths where the sandbox
 * deliberately differs from the example (each one a known difference); they are left out of the check.
 */
export function assertMatchesExample(
  doc: DocumentName,
  method: string,
  path: string,
  status: number,
  example: string,
  body: unknown,
  except: string[] = [],
): void {
  const document = documents[doc]
  const operation = ((document.paths as Json)[path] as Json | undefined)?.[method.toLowerCase()] as Json
  const content = ((operation?.responses as Json)?.[String(status)] as Json | undefined)?.content as Json
  const value = ((content?.['application/json'] as Json)?.examples as Json | undefined)?.[example] as Json
  if (!value) throw new Error(`${doc} has no example ${example} for ${status} of ${method} ${path}`)
  const schema = schemaFromExample(value.value)
  for (const dotted of except) withoutPath(schema, dotted.split('.'))
  const validate = ajv.compile(schema)
  if (!validate(body)) {
    throw new Error(
      `${method} ${path} ${status} does not match ${doc} example ${example}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 800)}`,
    )
  }
}
