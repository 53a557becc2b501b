// The fuzz targets (official operations + control routes) and one case's run against a sandbox's dispatcher.
import { randomBytes } from 'node:crypto'
import fc from 'fast-check'
import type { NeutralRequest } from '../../src/contract/neutral.ts'
import type { TableRoute } from '../../src/contract/route.ts'
import type { SandboxState } from '../../src/control/services.ts'
import type { Sandbox } from '../../src/sandbox.ts'
import { bodyArbitrary, fromSchema, isServiceErrorBody, officialOperations } from './openapi-fuzz.ts'

/** Ids of records that exist for the target's key, so generated paths sometimes name real ones. */
export interface FuzzIds {
  apiKey: string
  values: string[]
}

/** One generated request. */
export interface FuzzCase {
  request: NeutralRequest
}

/** Something to fuzz: an official operation or a control route. */
export interface FuzzTarget {
  source: 'full' | 'v2' | 'control'
  method: string
  path: string
  prepare(sandbox: Sandbox): Promise<FuzzIds>
  arbitrary(ids: FuzzIds): fc.Arbitrary<FuzzCase>
}

const json = { 'content-type': 'application/json', host: '127.0.0.1:8080' }

async function prepare(sandbox: Sandbox): Promise<FuzzIds> {
  const apiKey = `fuzz_${randomBytes(6).toString('hex')}`
  const created = await sandbox.dispatch({
    method: 'POST',
    path: '/v2/request',
    query: {},
    headers: { ...json, 'x-api-key': apiKey },
    rawBody: JSON.stringify({
      amount: '10',
      invoiceCurrency: 'FAU-sepolia',
      paymentCurrency: 'FAU-sepolia',
      payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
    }),
  })
  // without a real record the generated paths would never name one, and the fuzz would miss every found-record path
  if (created.status !== 201) throw new Error(`fuzz setup: POST /v2/request answered ${created.status}`)
  const body = created.body as { requestId: string; paymentReference: string }
  return { apiKey, values: [body.requestId, body.paymentReference] }
}

const paramArb = (ids: FuzzIds) =>
  fc.oneof(
    { weight: 2, arbitrary: ids.values.length ? fc.constantFrom(...ids.values) : fc.constant('x') },
    {
      weight: 3,
      arbitrary: fc.oneof(
        fc.string({ minLength: 1, maxLength: 30 }),
        fc.constantFrom(
          '0',
          'x',
          `0x${'0'.repeat(16)}`,
          '01JXYJKCAHGFTDR15F2D072ESG',
          'a'.repeat(300),
          '..',
          'sepolia',
        ),
      ),
    },
  )

const headersArb = (ids: FuzzIds) =>
  fc.record(
    {
      'x-api-key': fc.oneof(
        { weight: 9, arbitrary: fc.constant(ids.apiKey) },
        { weight: 1, arbitrary: fc.constant('') },
      ),
      'content-type': fc.constantFrom(
        'application/json',
        'application/json',
        'application/json',
        'text/plain',
        '',
      ),
      'x-client-id': fc.constantFrom('cli_000000000000', 'x'),
      origin: fc.constantFrom('https://app.example', 'null'),
    },
    { requiredKeys: ['x-api-key', 'content-type'] },
  )

/** A path with its parameters filled (`{name}` or `:name`) in template order, percent-encoded. */
function fill(path: string, values: string[]): string {
  let i = 0
  return path.replace(/\{\w+\}|:\w+/g, () => encodeURIComponent(values[i++] ?? 'x'))
}

function caseArbitrary(
  method: string,
  path: string,
  params: string[],
  query: fc.Arbitrary<Record<string, string>>,
  body: fc.Arbitrary<string | undefined>,
  ids: FuzzIds,
): fc.Arbitrary<FuzzCase> {
  return fc
    .record({
      values: fc.array(paramArb(ids), { minLength: params.length, maxLength: params.length }),
      query,
      body: method === 'GET' || method === 'DELETE' ? fc.constant(undefined) : body,
      headers: headersArb(ids),
    })
    .map(({ values, query: q, body: b, headers }) => {
      const h: Record<string, string> = { host: '127.0.0.1:8080' }
      for (const [k, v] of Object.entries(headers)) if (v !== undefined && v !== '') h[k] = v
      return { request: { method, path: fill(path, values), query: q, headers: h, rawBody: b } }
    })
}

const queryValue = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))

/** Every operation of both official documents, then every control route of the table. */
export function fuzzTargets(routes: readonly TableRoute<SandboxState>[]): FuzzTarget[] {
  const official: FuzzTarget[] = officialOperations().map((op) => ({
    source: op.document as 'full' | 'v2',
    method: op.method,
    path: op.path,
    prepare,
    arbitrary: (ids) => {
      const query = op.query.length
        ? fc
            .record(Object.fromEntries(op.query.map((q) => [q.name, fromSchema(q.schema).map(queryValue)])), {
              requiredKeys: [],
            })
            .map((r) => r as Record<string, string>)
        : fc.dictionary(fc.constantFrom('limit', 'offset', 'wallet', 'x'), fc.string({ maxLength: 10 }), {
            maxKeys: 2,
          })
      return caseArbitrary(op.method, op.path, op.pathParams, query, bodyArbitrary(op.body), ids)
    },
  }))
  const control: FuzzTarget[] = routes
    .filter((r) => r.path.startsWith('/__sandbox') || r.path.startsWith('/rpc'))
    .map((r) => ({
      source: 'control' as const,
      method: r.method,
      path: r.path,
      prepare,
      arbitrary: (ids) =>
        caseArbitrary(
          r.method,
          r.path,
          [...r.path.matchAll(/:(\w+)/g)].map((m) => m[1]!),
          fc.dictionary(
            fc.constantFrom('limit', 'type', 'since', 'event', 'path', 'scenario', 'network'),
            fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('-1', '0', '1e9', 'call')),
            { maxKeys: 3 },
          ),
          bodyArbitrary(null),
          ids,
        ),
    }))
  return [...official, ...control]
}

/** Sends one case; null when the answer is acceptable, else what was wrong. */
export async function runFuzzCase(
  sandbox: Sandbox,
  c: FuzzCase,
  statuses?: Map<number, number>,
): Promise<string | null> {
  const r = c.request
  const response = await sandbox.dispatch(r)
  statuses?.set(response.status, (statuses.get(response.status) ?? 0) + 1)
  const describe = () =>
    `${r.method} ${r.path} ${JSON.stringify(r.query)} ${JSON.stringify(r.headers)} ${r.rawBody?.slice(0, 200)} -> ${response.status} ${(response.text ?? JSON.stringify(response.body))?.slice(0, 300)}`
  if (response.status >= 500) return `5xx: ${describe()}`
  // the payer pages are pages for a person's browser: their unknown-link answer is an HTML page, on purpose
  const page = r.path.startsWith('/__sandbox/payer-pages/') && response.contentType?.startsWith('text/html')
  if (response.status >= 400 && !page) {
    const body = response.contentType
      ? (() => {
          try {
            return JSON.parse(String(response.body))
          } catch {
            return response.body
          }
        })()
      : response.body
    if (!isServiceErrorBody(response.status, body))
      return `4xx not in the service's error shape: ${describe()}`
  }
  return null
}
