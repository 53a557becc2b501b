// The same endpoint cases through Express and through MSW must answer identical status and bodies.
import { describe, expect, it } from 'vitest'
import { type CallOptions, useTransports } from '../support/clients.ts'

const t = useTransports(() => 'parity-key')

const payee = '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7'
const cases: [string, string, string, CallOptions?][] = [
  ['all currencies', 'GET', '/v1/currencies'],
  ['currencies by network', 'GET', '/v1/currencies', { query: { network: 'sepolia' } }],
  ['v2 currencies by symbol', 'GET', '/v2/currencies', { query: { symbol: 'USDC' } }],
  ['currency by id', 'GET', '/v1/currencies', { query: { id: 'FAU-sepolia' } }],
  [
    'firstOnly',
    'GET',
    '/v1/currencies',
    { query: { network: 'mainnet', symbol: 'USDC', firstOnly: 'true' } },
  ],
  [
    'firstOnly invalid',
    'GET',
    '/v1/currencies',
    { query: { network: 'mainnet', symbol: 'USDC', firstOnly: 'yes' } },
  ],
  ['firstOnly without symbol', 'GET', '/v1/currencies', { query: { network: 'mainnet', firstOnly: 'true' } }],
  ['unknown token id', 'GET', '/v1/currencies', { query: { id: 'NOPE-mainnet' } }],
  ['conversion routes', 'GET', '/v2/currencies/USD/conversion-routes'],
  [
    'conversion routes on sepolia',
    'GET',
    '/v2/currencies/USD/conversion-routes',
    { query: { network: 'sepolia' } },
  ],
  [
    'conversion routes, networks',
    'GET',
    '/v2/currencies/USD/conversion-routes',
    { query: { networks: 'mainnet,matic' } },
  ],
  ['conversion routes, unknown', 'GET', '/v2/currencies/XYZ/conversion-routes'],
  ['no api key', 'GET', '/v1/currencies', { apiKey: null }],
  ['unknown route', 'GET', '/v2/nothing-here'],
  ['unknown request', 'GET', `/v2/request/01${'ab'.repeat(32)}`],
  ['unknown request pay', 'GET', `/v2/request/01${'ab'.repeat(32)}/pay`],
  ['unknown reference pay', 'GET', '/v1/request/0x0123456789abcdef/pay'],
  ['pay query: bad wallet', 'GET', `/v2/request/01${'ab'.repeat(32)}/pay`, { query: { wallet: '0x12' } }],
  [
    'pay query: bad chain',
    'GET',
    `/v2/request/01${'ab'.repeat(32)}/pay`,
    { query: { chain: 'MOON', token: 'USDC' } },
  ],
  ['pay query: chain alone', 'GET', `/v2/request/01${'ab'.repeat(32)}/pay`, { query: { chain: 'BASE' } }],
  [
    'pay query: fee without address',
    'GET',
    `/v2/request/01${'ab'.repeat(32)}/pay`,
    { query: { feePercentage: '1' } },
  ],
  [
    'malformed JSON',
    'POST',
    '/v2/request',
    { rawBody: '{"amount": ', headers: { 'content-type': 'application/json' } },
  ],
  [
    'wrong content type',
    'POST',
    '/v2/request',
    { rawBody: 'amount=1', headers: { 'content-type': 'text/plain' } },
  ],
  [
    'oversized body',
    'POST',
    '/v2/request',
    { rawBody: `{"a":"${'x'.repeat(1024 * 1024)}"}`, headers: { 'content-type': 'application/json' } },
  ],
  ['empty create body', 'POST', '/v2/request', { body: {} }],
  [
    'negative amount',
    'POST',
    '/v2/request',
    { body: { amount: '-1', invoiceCurrency: 'FAU-sepolia', paymentCurrency: 'FAU-sepolia', payee } },
  ],
  [
    'unknown currency',
    'POST',
    '/v2/request',
    { body: { amount: '1', invoiceCurrency: 'NOPE', paymentCurrency: 'FAU-sepolia', payee } },
  ],
  [
    'missing payee',
    'POST',
    '/v2/request',
    { body: { amount: '1', invoiceCurrency: 'FAU-sepolia', paymentCurrency: 'FAU-sepolia' } },
  ],
  [
    'past recurrence',
    'POST',
    '/v2/request',
    {
      body: {
        amount: '1',
        invoiceCurrency: 'FAU-sepolia',
        paymentCurrency: 'FAU-sepolia',
        payee,
        recurrence: { startDate: '2020-01-01', frequency: 'DAILY' },
      },
    },
  ],
  ['unknown payer', 'GET', '/v2/payer/nobody%40example.com'],
  ['invalid payer body', 'POST', '/v1/payer', { body: { clientUserId: 'x', email: 'nope', country: 'XX' } }],
  ['agreement flag missing', 'PATCH', '/v2/payer/nobody', { body: {} }],
  ['payment details of an unknown payer', 'POST', '/v2/payer/nobody/payment-details', { body: {} }],
  ['unknown client ID record', 'GET', '/v2/client-ids/01HXEXAMPLE123'],
  [
    'unknown x-client-id',
    'GET',
    '/v2/currencies',
    { apiKey: null, headers: { 'x-client-id': 'cli_000000000000' } },
  ],
  ['unknown page link', 'GET', '/__sandbox/payer-pages/0123/kyc', { apiKey: null }],
  [
    'preflight',
    'OPTIONS',
    '/v2/request',
    { headers: { origin: 'https://app.example', 'access-control-request-headers': 'x-api-key,x-client-id' } },
  ],
]

describe('the node listener, the Express app and MSW answer the same', () => {
  it.each(cases)('%s', async (_name, method, path, options) => {
    const [http, msw, viaExpress] = await Promise.all(
      [...t.clients, t.express].map((c) => c.call(method, path, options)),
    )
    expect(msw!.status).toBe(http!.status)
    expect(msw!.body).toEqual(http!.body)
    expect(viaExpress!.status).toBe(http!.status)
    expect(viaExpress!.body).toEqual(http!.body)
    expect(http!.status).not.toBe(500)
  })

  it('preflight allows every header the sandbox reads', async () => {
    for (const client of [...t.clients, t.express]) {
      const res = await client.call('OPTIONS', '/v2/request', { apiKey: null })
      expect(res.status).toBe(204)
      const allowed = res.headers.get('access-control-allow-headers')!.split(',')
      for (const h of ['x-api-key', 'x-client-id', 'content-type', 'authorization', 'x-sandbox-scenario']) {
        expect(allowed).toContain(h)
      }
    }
  })

  it('answers a browser call (with Origin) with CORS headers, errors included, and a server call without', async () => {
    for (const client of [...t.clients, t.express]) {
      for (const path of ['/v1/currencies?id=FAU-sepolia', '/v1/currencies?id=NOPE']) {
        const browser = await client.call('GET', path, { headers: { origin: 'https://shop.example' } })
        expect(browser.headers.get('access-control-allow-origin'), client.transport).toBe('*')
        expect(browser.headers.get('access-control-expose-headers')).toContain('retry-after')
      }
      const server = await client.call('GET', '/v1/currencies?id=FAU-sepolia')
      expect(server.headers.get('access-control-allow-origin')).toBeNull()
    }
  })
})
