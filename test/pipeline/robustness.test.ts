// Bad input never gets a 5xx: every route of the table, fed malformed bodies, queries and path parameters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NeutralRequest } from '../../src/contract/neutral.ts'
import { routes } from '../../src/routes.ts'
import { createSandbox, type Sandbox } from '../../src/sandbox.ts'

let sandbox: Sandbox
beforeAll(async () => {
  sandbox = await createSandbox({ log: () => {} })
})
afterAll(async () => sandbox?.close())

const bodies: (string | undefined)[] = [
  undefined,
  '{}',
  '[]',
  'null',
  '"text"',
  '12',
  '{"amount":null,"payee":null,"status":null,"action":null,"url":null,"scenario":null}',
  '{"amount":{},"invoiceCurrency":[],"payee":1,"recurrence":"x","customerInfo":5,"requests":"x","permitSignature":{}}',
  '{"amount":"1e309","invoiceCurrency":"FAU-sepolia","paymentCurrency":"FAU-sepolia","payee":"0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7","recurrence":{"startDate":"9999-99-99","frequency":"DAILY"}}',
  `{"label":"${'x'.repeat(5000)}","allowedDomains":["javascript:alert(1)"],"feePercentage":"-1"}`,
  '{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}',
  '{"signedPaymentIntent":{"signature":"0x","nonce":"x","deadline":"y"}}',
  '{"seconds":1e308}',
  '{"address":"0x0","currency":"NOPE","amount":"-5"}',
]
const params = [
  'x',
  '0',
  `01${'f'.repeat(64)}`,
  '0x0123456789abcdef',
  '%E2%98%83',
  'a'.repeat(300),
  '..%2F..%2Fetc',
  '%ZZ',
  '01JXYJKCAHGFTDR15F2D072ESG',
]
const queries: Record<string, string>[] = [
  {},
  {
    wallet: 'x',
    amount: '-1',
    chain: 'MARS',
    token: 'X',
    feePercentage: 'abc',
    limit: '-5',
    offset: 'x',
    fromDate: 'never',
  },
  {
    amount: '1'.repeat(400),
    network: '%00',
    firstOnly: 'maybe',
    networks: ',,,',
    txHash: '0x',
    type: 'bogus',
  },
]

function concretePaths(path: string): string[] {
  if (!path.includes(':')) return [path]
  return params.map((p) => path.replace(/:\w+/g, p))
}

describe('no route answers 5xx to malformed input', () => {
  it.each(routes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', async (_name, route) => {
    const seen = new Set<number>()
    for (const path of concretePaths(route.path)) {
      for (const query of queries) {
        for (const rawBody of route.method === 'GET' ? [undefined] : bodies) {
          const request: NeutralRequest = {
            method: route.method,
            path,
            query,
            headers: {
              'x-api-key': 'robustness',
              'content-type': 'application/json',
              host: '127.0.0.1:8080',
            },
            rawBody,
          }
          const response = await sandbox.dispatch(request)
          seen.add(response.status)
          if (response.status >= 500) {
            throw new Error(
              `${route.method} ${path} ${JSON.stringify(query)} ${rawBody?.slice(0, 120)} -> ${response.status} ${JSON.stringify(response.body)}`,
            )
          }
        }
      }
    }
    expect([...seen].every((s) => s < 500)).toBe(true)
  })
})
