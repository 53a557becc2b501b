// Builds test/fixtures/verify-corpus/official-examples.har: the verify catalogue's flows as the real service answers
// them according to its published OpenAPI documents (test/fixtures/official/). Each step's answer is the documents'
// example for the operation and the status the step expects (its first example; V2 0.13.0 first, FULL 0.8.1 for what
// V2 lacks); where a document shows no example, one built from the schema's property examples; where it documents
// the status and no body, the status alone. A step whose status no document lists is left out (the replay skips it).
// The suite replays the file against the sandbox offline (test/verify/corpus.test.ts), which also checks it is fresh.
// Run it after replacing the official documents or changing the catalogue: `npx tsx scripts/build-verify-corpus.ts`.
import { readFileSync, writeFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { parse } from 'yaml'
import { exampleOf } from '../src/control/docs/example-of.ts'
import { FLOWS } from '../src/verify/catalogue.ts'
import { type HarEntry, maskExchange, toEntry, toHar } from '../src/verify/har.ts'
import { buildRequest } from '../src/verify/run.ts'
import { MissingValue, type Scope } from '../src/verify/templates.ts'

// biome-ignore lint/suspicious/noExplicitAny: the official documents are untyped YAML and JSON, read field by field
type Doc = any

const root = new URL('..', import.meta.url)
const official = new URL('test/fixtures/official/', root)
export const CORPUS_FILE = new URL('test/fixtures/verify-corpus/official-examples.har', root)

/** The base URL the corpus's calls are written against (the documents' production server). */
const BASE = 'https://api.request.network'
/** When the documents were copied: the time of every entry, so the file is the same at each build. */
const RECORDED_AT = '2026-11-23T00:00:00.000Z'

export const CORPUS_INPUTS = {
  payee: '0x000000000000000000000000000000000000dEaD',
  run: 'corpus',
  webhookUrl: 'http://127.0.0.1:9/verify-hook',
}

/** The status each refused step expects; every other step expects the operation's success status. */
export const EXPECTED_STATUS: Record<string, number> = {
  'validation-errors/request-empty-body': 400,
  'validation-errors/request-bad-payee': 400,
  'validation-errors/request-unknown': 404,
  'validation-errors/payout-empty-body': 400,
  'validation-errors/currencies-bad-first-only': 400,
  'validation-errors/currency-unknown': 404,
  'validation-errors/link-unknown': 404,
  'validation-errors/payer-unknown': 404,
  'validation-errors/client-id-empty-body': 400,
  'payee-destination/signing-data-bad-action': 400,
  'auth-errors/no-credentials': 401,
  'auth-errors/invalid-key': 401,
  'auth-errors/create-no-credentials': 401,
}

/**
 * The example a step reads where an answer has several: the one of the state the flow makes (an unpaid request, a
 * filtered list); every other step reads the first.
 */
export const EXAMPLE_FOR: Record<string, string> = {
  'currencies/filter': 'bySymbolAndNetwork',
  'currencies/first-only': 'firstOnly',
  'currencies/list-v1': 'bySymbolAndNetwork',
  'request/get': 'unpaidRequest',
  'request-v1/get': 'notPaid',
  'request-v1/pay-calldata': 'token',
  'payout-calldata/create': 'erc20Token',
  'payout-calldata/get': 'notPaid',
}

function documents(): { name: string; doc: Doc }[] {
  const v2 = JSON.parse(readFileSync(new URL('openapi-v2.json', official), 'utf8'))
  const full = parse(readFileSync(new URL('openapi-v1-v2.yaml', official), 'utf8'))
  return [
    { name: `V2 ${v2.info.version}`, doc: v2 },
    { name: `FULL ${full.info.version}`, doc: full },
  ]
}

/**
 * What the documents say an operation answers with a status: a body (and where it comes from), or the status alone;
 * `unspecified`: the paths of a schema-built body whose values the schema does not give (placeholders).
 */
interface Documented {
  body?: unknown
  source: string
  unspecified?: string[]
}

/** A status the documents give without a body: neither the body nor its content type is compared. */
const BODY_UNSPECIFIED = ['$', 'header content-type']

const identifier = /^[A-Za-z_$][\w$]*$/
const child = (parent: string, key: string) =>
  identifier.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`

/**
 * A body built from a schema: each value its own example (or default, or first enum value); where the schema gives
 * none, a placeholder of its type whose path is listed in `unspecified` (verify compares only that the field is there).
 */
function fromSchema(schema: Doc, path: string, unspecified: string[], depth = 0): unknown {
  if (!schema || typeof schema !== 'object' || depth > 8) return undefined
  const given = exampleOf(
    schema.example !== undefined || schema.default !== undefined || schema.enum ? schema : {},
  )
  if (given !== undefined) return given
  const part = schema.allOf ?? schema.oneOf ?? schema.anyOf
  if (Array.isArray(part) && part.length) {
    if (!schema.allOf) return fromSchema(part[0], path, unspecified, depth + 1)
    return Object.assign({}, ...part.map((p: Doc) => fromSchema(p, path, unspecified, depth + 1) ?? {}))
  }
  if (schema.type === 'array' || schema.items) {
    const item = fromSchema(schema.items, `${path}[*]`, unspecified, depth + 1)
    return item === undefined ? [] : [item]
  }
  if (schema.type === 'object' || schema.properties) {
    const out: Record<string, unknown> = {}
    for (const [name, property] of Object.entries<Doc>(schema.properties ?? {})) {
      const value = fromSchema(property, child(path, name), unspecified, depth + 1)
      if (value !== undefined) out[name] = value
    }
    return out
  }
  const placeholder = { string: 'string', integer: 0, number: 0, boolean: true }[schema.type as string]
  if (placeholder === undefined) return undefined
  unspecified.push(path)
  return placeholder
}

function documented(
  docs: { name: string; doc: Doc }[],
  operation: string,
  status: number,
  exampleName?: string,
): Documented | undefined {
  const [method, path] = operation.split(' ') as [string, string]
  for (const { name, doc } of docs) {
    const responses = doc.paths?.[path]?.[method.toLowerCase()]?.responses
    if (!responses) continue
    const code = status
    const answer = responses[String(code)]
    if (!answer) continue
    const media = answer.content?.['application/json']
    if (!media)
      return {
        source: `${name} ${operation} ${code}: the document gives this status and no body`,
        unspecified: BODY_UNSPECIFIED,
      }
    if (media.example !== undefined)
      return { body: media.example, source: `${name} ${operation} ${code}: example` }
    const examples = Object.entries<Doc>(media.examples ?? {})
    const [chosen, example] = examples.find(([n]) => n === exampleName) ?? examples[0] ?? []
    if (example?.value !== undefined)
      return { body: example.value, source: `${name} ${operation} ${code}: example "${chosen}"` }
    const unspecified: string[] = []
    const built = fromSchema(media.schema, '$', unspecified)
    if (built !== undefined)
      return {
        body: built,
        source: `${name} ${operation} ${code}: built from the schema's property examples`,
        ...(unspecified.length ? { unspecified } : {}),
      }
    return {
      source: `${name} ${operation} ${code}: the document gives this status and no body`,
      unspecified: BODY_UNSPECIFIED,
    }
  }
  return undefined
}

const successStatus = (docs: { name: string; doc: Doc }[], operation: string): number | undefined => {
  const [method, path] = operation.split(' ') as [string, string]
  for (const { doc } of docs) {
    const responses = doc.paths?.[path]?.[method.toLowerCase()]?.responses
    const code = responses && Object.keys(responses).find((c) => /^2\d\d$/.test(c))
    if (code) return Number(code)
  }
  return undefined
}

/** The corpus: its HAR document, and the steps it leaves out with why. */
export function buildCorpus(): { har: ReturnType<typeof toHar>; omitted: string[] } {
  const docs = documents()
  const entries: HarEntry[] = []
  const omitted: string[] = []
  for (const flow of FLOWS) {
    const scope: Scope = { input: { ...CORPUS_INPUTS } }
    for (const step of flow.steps) {
      const where = `${flow.id}/${step.name}`
      const status = EXPECTED_STATUS[where] ?? successStatus(docs, step.operation)
      const answer =
        status === undefined ? undefined : documented(docs, step.operation, status, EXAMPLE_FOR[where])
      if (!answer || status === undefined) {
        omitted.push(`${where}: no document lists ${step.operation} answering ${status ?? 'a success'}`)
        continue
      }
      let request: ReturnType<typeof buildRequest>
      try {
        request = buildRequest(step, scope, { apiKey: 'rn_corpus_key' })
      } catch (error) {
        if (!(error instanceof MissingValue)) throw error
        omitted.push(`${where}: the documents' earlier answers have no ${error.reference}`)
        continue
      }
      const body = answer.body === undefined ? '' : JSON.stringify(answer.body)
      scope[step.name] = answer.body
      const headers: Record<string, string> = {}
      if (answer.body !== undefined) headers['content-type'] = 'application/json; charset=utf-8'
      const response = { status, headers, body }
      const masked = maskExchange({ request, response }, ['rn_corpus_key'])
      entries.push({
        ...toEntry(BASE, { ...masked, flow: flow.id, step: step.name, startedDateTime: RECORDED_AT }),
        comment: answer.source,
        ...(answer.unspecified ? { _unspecified: answer.unspecified } : {}),
      })
    }
  }
  const har = toHar(
    entries,
    { side: 'real', base: BASE, credentials: 'api-key', inputs: CORPUS_INPUTS },
    `Built by scripts/build-verify-corpus.ts from the official OpenAPI documents in test/fixtures/official/ (${docs.map((d) => d.name).join(', ')}); do not edit. Left out: ${omitted.join('; ') || 'nothing'}`,
  )
  return { har, omitted }
}

/** The file as committed. */
export function renderCorpus(): string {
  return `${JSON.stringify(buildCorpus().har, null, 1)}\n`
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(CORPUS_FILE, renderCorpus())
  console.log(`wrote ${CORPUS_FILE.pathname}`)
}
