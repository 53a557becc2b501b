// Requests derived from the official OpenAPI documents (test/fixtures/official/) for fuzzing: every operation of
// both documents with fast-check arbitraries for its path parameters, query and JSON body. Bodies are mostly
// shaped like the schema with some fields wrong, missing or extra, plus arbitrary JSON and text that is not JSON.
import fc from 'fast-check'
import { documents } from './openapi.ts'

type Json = Record<string, unknown>

/** One operation of an official document. */
export interface FuzzOperation {
  document: string
  method: string
  /** the document's path template, `{name}` parameters */
  path: string
  pathParams: string[]
  query: { name: string; schema: Json }[]
  body: Json | null
}

function resolve(node: unknown, doc: Json, seen: ReadonlySet<string> = new Set()): unknown {
  if (Array.isArray(node)) return node.map((n) => resolve(n, doc, seen))
  if (!node || typeof node !== 'object') return node
  const obj = node as Json
  if (typeof obj.$ref === 'string') {
    if (seen.has(obj.$ref)) return {}
    const target = obj.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((acc, key) => (acc as Json | undefined)?.[key], doc)
    return resolve(target, doc, new Set([...seen, obj.$ref]))
  }
  const out: Json = {}
  for (const [key, value] of Object.entries(obj)) {
    if (key === 'description') continue
    out[key] = resolve(value, doc, seen)
  }
  return out
}

/** Every operation of both official documents. */
export function officialOperations(): FuzzOperation[] {
  const out: FuzzOperation[] = []
  for (const [name, doc] of Object.entries(documents) as [string, Json][]) {
    for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
      for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
        const op = item[method] as Json | undefined
        if (!op) continue
        const parameters = (resolve(op.parameters ?? [], doc) as Json[]).filter(Boolean)
        const content = (resolve(op.requestBody, doc) as Json | undefined)?.content as
          | Record<string, { schema?: Json }>
          | undefined
        out.push({
          document: name,
          method: method.toUpperCase(),
          path,
          pathParams: [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!),
          query: parameters
            .filter((p) => p.in === 'query')
            .map((p) => ({ name: String(p.name), schema: (p.schema as Json) ?? {} })),
          body: content?.['application/json']?.schema ?? null,
        })
      }
    }
  }
  return out
}

// plausible values for strings, so generated bodies often get past the first checks and reach the models
const plausibleStrings = [
  '10',
  '0.5',
  '0',
  '-1',
  '1e18',
  'FAU-sepolia',
  'USDC-sepolia',
  'ETH-sepolia-sepolia',
  'USD',
  'EUR',
  'sepolia',
  'base',
  '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
  '0x0000000000000000000000000000000000000000',
  '0x',
  `0x${'ab'.repeat(65)}`,
  '2026-01-01T00:00:00.000Z',
  'not-a-date',
  'https://example.com/hook',
  'https://user:pw@example.com/x',
  'javascript:alert(1)',
  'DAILY',
  'MONTHLY',
  'REQUEST_NETWORK_PAYMENT',
  '',
  ' ',
  '\u0000',
  '☃',
  'x'.repeat(600),
]

const stringArb = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...plausibleStrings) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
)
const anyJson = fc.jsonValue({ maxDepth: 2 })

/** Values shaped by a JSON schema, with a chance of a wrong value at every level. */
export function fromSchema(schema: Json | undefined, depth = 0): fc.Arbitrary<unknown> {
  const wrong = depth > 4 ? fc.constant(null) : anyJson
  if (!schema || depth > 5) return wrong
  const shaped = shapedBy(schema, depth)
  return fc.oneof({ weight: 9, arbitrary: shaped }, { weight: 1, arbitrary: wrong })
}

function shapedBy(schema: Json, depth: number): fc.Arbitrary<unknown> {
  const alternatives = (schema.oneOf ?? schema.anyOf) as Json[] | undefined
  if (alternatives?.length) return fc.oneof(...alternatives.map((s) => fromSchema(s, depth + 1)))
  if (Array.isArray(schema.allOf) && schema.allOf.length) {
    const merged: Json = { type: 'object', properties: {}, required: [] }
    for (const part of schema.allOf as Json[]) {
      Object.assign(merged.properties as Json, part.properties ?? {})
      ;(merged.required as string[]).push(...((part.required as string[]) ?? []))
    }
    return shapedBy(merged, depth)
  }
  if (Array.isArray(schema.enum) && schema.enum.length)
    return fc.oneof(fc.constantFrom(...(schema.enum as unknown[])), stringArb)
  if (schema.example !== undefined && depth > 0 && typeof schema.example !== 'object')
    return fc.oneof(fc.constant(schema.example), typed(schema, depth))
  return typed(schema, depth)
}

function typed(schema: Json, depth: number): fc.Arbitrary<unknown> {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type
  switch (type) {
    case 'string':
      return schema.format === 'date-time'
        ? fc.oneof(
            fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
            stringArb,
          )
        : stringArb
    case 'number':
    case 'integer':
      return fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -1, 1e308, 2 ** 53))
    case 'boolean':
      return fc.boolean()
    case 'array':
      return fc.array(fromSchema(schema.items as Json | undefined, depth + 1), { maxLength: 4 })
    default: {
      const properties = (schema.properties ?? {}) as Record<string, Json>
      const names = Object.keys(properties)
      if (!names.length) return anyJson
      const required = new Set((schema.required as string[]) ?? [])
      return fc.record(
        Object.fromEntries(names.map((n) => [n, fromSchema(properties[n], depth + 1)])),
        // required fields are there most of the time; optional ones now and then
        { requiredKeys: names.filter((n) => required.has(n) && depth < 3) },
      )
    }
  }
}

/** Bodies past the size bounds (issue 20): a long string, a long array, a wide object, nested ones, past 1 MB. */
const oversized = fc.constantFrom(
  JSON.stringify({ reference: 'x'.repeat(20_000), redirectUrl: `https://example.com/${'p'.repeat(20_000)}` }),
  JSON.stringify({ requests: Array.from({ length: 1_200 }, () => ({ amount: '1' })) }),
  JSON.stringify(Object.fromEntries(Array.from({ length: 1_200 }, (_, i) => [`k${i}`, i]))),
  JSON.stringify({ metadata: { notes: ['y'.repeat(17_000)] } }),
  JSON.stringify({ url: 'z'.repeat(1_100_000) }),
)

/** A request body: the schema's shape most of the time, else any JSON, text that is not JSON, or nothing. */
export function bodyArbitrary(schema: Json | null): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    {
      weight: schema ? 8 : 1,
      arbitrary: fromSchema(schema ?? undefined).map((v) => JSON.stringify(v) ?? 'null'),
    },
    { weight: 2, arbitrary: anyJson.map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
    { weight: 1, arbitrary: oversized },
    {
      weight: 1,
      arbitrary: fc.constantFrom(undefined, '', '{', '{"a":', '[1,2', 'null', '{"__proto__":{"x":1}}'),
    },
    { weight: 1, arbitrary: deepBody(schema) },
  )
}

/** A body nested past the sandbox's 64 levels (objects or arrays), alone or in one field of a shaped body. */
function deepBody(schema: Json | null): fc.Arbitrary<string> {
  return fc
    .tuple(fromSchema(schema ?? undefined), fc.integer({ min: 65, max: 5000 }), fc.boolean())
    .map(([shaped, levels, arrays]) => {
      const deep = arrays
        ? `${'['.repeat(levels)}${']'.repeat(levels)}`
        : `${'{"x":'.repeat(levels)}null${'}'.repeat(levels)}`
      if (!shaped || typeof shaped !== 'object' || Array.isArray(shaped)) return deep
      const field = Object.keys(shaped)[0] ?? 'x'
      return JSON.stringify({ ...shaped, [field]: 'DEEP\u0000' }).replace('"DEEP\\u0000"', deep)
    })
}

/** Whether a 4xx body is in one of the service's error shapes (Nest E1, zod issue list E2, field list E3, the multicall envelope). */
export function isServiceErrorBody(status: number, body: unknown): boolean {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return false
  const b = body as Json
  const e3 =
    b.message === 'Validation failed' &&
    Array.isArray(b.errors) &&
    (b.errors as Json[]).every((e) => typeof e.field === 'string' && typeof e.message === 'string')
  if (e3) return b.statusCode === undefined || b.statusCode === status
  // the multicall envelope api-reference/secure-payments.mdx documents (no statusCode)
  if (b.code === 'multicall_validation_failed')
    return status === 400 && b.message === 'Multicall validation failed' && Array.isArray(b.failures)
  if (b.statusCode !== status) return false
  if (typeof b.message === 'string') return true
  return (
    Array.isArray(b.message) &&
    (b.message as Json[]).every((i) => typeof i.message === 'string' && Array.isArray(i.path))
  )
}
