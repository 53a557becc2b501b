// Faults on demand: x-sandbox-status and x-sandbox-delay on any API call, for clients' retry and timeout code.
import { expect, it } from 'vitest'
import { CORS_ALLOWED_HEADERS } from '../../src/pipeline/index.ts'
import { requestState } from '../../src/resources/requests/index.ts'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'

const t = useTransports(newApiKey, { chain: false })

const invoice = {
  amount: '10',
  invoiceCurrency: 'FAU-sepolia',
  paymentCurrency: 'FAU-sepolia',
  payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
}

describeTransports(
  'fault headers through %s',
  () => t,
  (client) => {
    it.each([
      [400, { statusCode: 400, message: 'Bad Request' }],
      [401, { statusCode: 401, message: 'Unauthorized', error: 'Unauthorized' }],
      [404, { statusCode: 404, message: 'Not Found' }],
      [409, { statusCode: 409, message: 'Conflict' }],
      [500, { statusCode: 500, message: 'Internal server error', error: 'Internal Server Error' }],
      [502, { statusCode: 502, message: 'Bad Gateway' }],
      [503, { statusCode: 503, message: 'Service Unavailable' }],
      [504, { statusCode: 504, message: 'Gateway Timeout' }],
    ])(
      'answers x-sandbox-status %i with the service body for it, without running the call',
      async (status, body) => {
        const apiKey = newApiKey()
        const res = await client().call('POST', '/v2/request', {
          apiKey,
          body: invoice,
          headers: { 'x-sandbox-status': String(status) },
        })
        expect(res.status).toBe(status)
        expect(res.body).toEqual(body)
        const world = t.sandbox.shared.tenants.peek(apiKey)
        expect(world ? requestState(world).requests.size : 0).toBe(0)
        // The next call without the header goes through: a client's retry succeeds.
        const retried = await client().call('POST', '/v2/request', { apiKey, body: invoice })
        expect(retried.status).toBe(201)
      },
    )

    it('answers x-sandbox-status 429 in the throttler shape with Retry-After', async () => {
      // as a browser app sends it (with Origin), so the CORS headers say what it may read
      const res = await client().call('GET', '/v1/currencies', {
        headers: { 'x-sandbox-status': '429', origin: 'https://app.example' },
      })
      expect(res.status).toBe(429)
      expect(res.body).toEqual({ statusCode: 429, message: 'ThrottlerException: Too Many Requests' })
      expect(res.headers.get('retry-after')).toBe('1')
      expect(res.headers.get('x-sandbox-fault')).toBe('x-sandbox-status')
      expect(res.headers.get('access-control-expose-headers')).toContain('x-sandbox-fault')
    })

    it.each([
      ['x-sandbox-status', '200'],
      ['x-sandbox-status', '700'],
      ['x-sandbox-status', 'teapot'],
      ['x-sandbox-delay', '-5'],
      ['x-sandbox-delay', '1.5'],
      ['x-sandbox-delay', '30001'],
      ['x-sandbox-delay', 'soon'],
    ])('answers 400 for %s: %s', async (header, value) => {
      const res = await client().call('GET', '/v1/currencies', { headers: { [header]: value } })
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' })
      expect(res.body.message).toContain(header)
    })

    it('delays a call by x-sandbox-delay milliseconds', async () => {
      const started = Date.now()
      const res = await client().call('GET', '/v1/currencies', {
        query: { id: 'FAU-sepolia' },
        headers: { 'x-sandbox-delay': '300' },
      })
      expect(res.status).toBe(200)
      expect(Date.now() - started).toBeGreaterThanOrEqual(300)
    })

    it('does not fault the control API (a client can always reach /__sandbox)', async () => {
      const res = await client().call('GET', '/__sandbox/clock', { headers: { 'x-sandbox-status': '500' } })
      expect(res.status).toBe(200)
    })

    it('lets browsers send the sandbox headers (CORS preflight)', async () => {
      for (const header of ['x-sandbox-scenario', 'x-sandbox-delay', 'x-sandbox-status']) {
        expect(CORS_ALLOWED_HEADERS).toContain(header)
      }
      const res = await client().call('OPTIONS', '/v2/request', { apiKey: null })
      expect(res.status).toBe(204)
      expect(res.headers.get('access-control-allow-headers')).toContain('x-sandbox-status')
    })
  },
)
