// Each built-in scenario, seen from the API: through a real HTTP server and through MSW, selected per request
// (x-sandbox-scenario) or per key (PUT /__sandbox/scenario).
import { beforeAll, expect, it } from 'vitest'
import { requestState } from '../../src/resources/requests/index.ts'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'
import { assertMatchesDocument } from '../support/openapi.ts'

const t = useTransports()
// a scenario this version cannot run yet: the engine answers 501 for it instead of seeding a half world
beforeAll(() =>
  t.sandbox.shared.scenarios.registry.add(
    [
      {
        name: 'needs-the-moon',
        description: 'Waits for a resource this version lacks.',
        creates: {},
        pending: 'it needs a moon landing',
      },
    ],
    'this test',
  ),
)

describeTransports(
  'scenarios through %s',
  () => t,
  (client) => {
    const inScenario = (scenario: string) => ({ 'x-sandbox-scenario': scenario })

    it('lists every built-in scenario with its description, rules and the ids it creates', async () => {
      const res = await client().call('GET', '/__sandbox/scenarios')
      expect(res.status).toBe(200)
      const names = res.body.scenarios.map((s: { name: string }) => s.name)
      expect(names).toEqual(
        expect.arrayContaining([
          'default',
          'insufficient-funds',
          'rate-limited',
          'service-unavailable',
          'slow',
          'request-paid',
          'request-partially-paid',
          'payout-cancelled',
          'payout-paused-insufficient-funds',
          'kyc-not-started',
          'kyc-approved',
          'kyc-rejected',
          'payment-details-approved',
        ]),
      )
      for (const scenario of res.body.scenarios) {
        expect(scenario.description.length, scenario.name).toBeGreaterThan(10)
        expect(scenario.seeded).toBeNull()
      }
      const funds = res.body.scenarios.find((s: { name: string }) => s.name === 'insufficient-funds')
      expect(Object.keys(funds.creates)).toEqual(expect.arrayContaining(['requestId', 'payer']))
      expect(res.body).toMatchObject({ default: 'default', selected: 'default' })
    })

    it('shows the ids a scenario seeded for the caller once it is used', async () => {
      const apiKey = newApiKey()
      const used = await client().call('GET', '/__sandbox/scenario', {
        apiKey,
        headers: inScenario('insufficient-funds'),
      })
      const listed = await client().call('GET', '/__sandbox/scenarios', { apiKey })
      const funds = listed.body.scenarios.find((s: { name: string }) => s.name === 'insufficient-funds')
      expect(funds.seeded).toEqual(used.body.ids)
      const other = await client().call('GET', '/__sandbox/scenarios')
      expect(
        other.body.scenarios.find((s: { name: string }) => s.name === 'insufficient-funds').seeded,
      ).toBeNull()
    })

    it('answers 400 listing the known scenarios for an unknown name, in a header or in PUT', async () => {
      for (const name of ['no-such-scenario', '../../etc/passwd', 'Slow', 'slow/../slow']) {
        const viaHeader = await client().call('GET', '/v1/currencies', {
          query: { id: 'FAU-sepolia' },
          headers: inScenario(name),
        })
        expect(viaHeader.status, name).toBe(400)
        expect(viaHeader.body.error).toBe('Bad Request')
        expect(viaHeader.body.message).toContain(
          'Known scenarios: default, crosschain-progress, demo, insufficient-funds',
        )
        expect(viaHeader.body.scenarios).toContain('rate-limited')
        const viaPut = await client().call('PUT', '/__sandbox/scenario', { body: { scenario: name } })
        expect(viaPut.status, name).toBe(400)
        expect(viaPut.body.scenarios).toContain('slow')
      }
    })

    it('runs insufficient-funds: the seeded payer has gas but no FAU, so /pay says hasEnoughBalance false', async () => {
      const apiKey = newApiKey()
      const headers = inScenario('insufficient-funds')
      const state = await client().call('GET', '/__sandbox/scenario', { apiKey, headers })
      expect(state.status).toBe(200)
      expect(state.body.scenario).toBe('insufficient-funds')
      const { requestId, paymentReference, payer } = state.body.ids
      const read = await client().call('GET', `/v2/request/${requestId}`, { apiKey, headers })
      expect(read.status).toBe(200)
      expect(read.body).toMatchObject({ paymentReference, status: 'pending', hasBeenPaid: false })
      const pay = await client().call('GET', `/v2/request/${requestId}/pay`, { apiKey, headers })
      expect(pay.status).toBe(200)
      assertMatchesDocument('v2', 'GET', '/v2/request/{requestId}/pay', 200, pay.body)
      expect(pay.body.metadata).toMatchObject({
        hasEnoughBalance: false,
        hasEnoughGas: true,
        needsApproval: true,
      })
      // The balance is the chain's: funding the payer flips it.
      const funded = await client().call('POST', '/__sandbox/faucet', {
        apiKey,
        body: { address: payer, currency: 'FAU-sepolia', amount: '300' },
      })
      expect(funded.body.balance).toBe('300')
      const again = await client().call('GET', `/v2/request/${requestId}/pay`, { apiKey, headers })
      expect(again.body.metadata.hasEnoughBalance).toBe(true)
      // The default world of the same key does not have the scenario's request.
      const plain = await client().call('GET', `/v2/request/${requestId}`, { apiKey })
      expect(plain.status).toBe(404)
    })

    it('switches a key with PUT /__sandbox/scenario, so calls without the header run in that scenario', async () => {
      const apiKey = newApiKey()
      const put = await client().call('PUT', '/__sandbox/scenario', {
        apiKey,
        body: { scenario: 'insufficient-funds' },
      })
      expect(put.status).toBe(200)
      expect(put.body.ids.requestId).toMatch(/^01[0-9a-f]{64}$/)
      const read = await client().call('GET', `/v2/request/${put.body.ids.requestId}`, { apiKey })
      expect(read.status).toBe(200)
      const current = await client().call('GET', '/__sandbox/scenario', { apiKey })
      expect(current.body).toMatchObject({ scenario: 'insufficient-funds', ids: put.body.ids })
      const back = await client().call('PUT', '/__sandbox/scenario', {
        apiKey,
        body: { scenario: 'default' },
      })
      expect(back.body).toMatchObject({ scenario: 'default', ids: {} })
      expect((await client().call('GET', `/v2/request/${put.body.ids.requestId}`, { apiKey })).status).toBe(
        404,
      )
    })

    it('runs rate-limited: two calls a minute, then 429 in the throttler shape with Retry-After', async () => {
      const apiKey = newApiKey()
      const headers = inScenario('rate-limited')
      const query = { id: 'FAU-sepolia' }
      expect((await client().call('GET', '/v1/currencies', { apiKey, headers, query })).status).toBe(200)
      expect((await client().call('GET', '/v1/currencies', { apiKey, headers, query })).status).toBe(200)
      const limited = await client().call('GET', '/v1/currencies', { apiKey, headers, query })
      expect(limited.status).toBe(429)
      expect(limited.body).toEqual({ statusCode: 429, message: 'ThrottlerException: Too Many Requests' })
      const retryAfter = Number(limited.headers.get('retry-after'))
      expect(retryAfter).toBeGreaterThanOrEqual(1)
      expect(retryAfter).toBeLessThanOrEqual(60)
      // The control API is never limited; moving the tenant clock past the window lets calls through again.
      const moved = await client().call('POST', '/__sandbox/clock/advance', {
        apiKey,
        headers,
        body: { seconds: retryAfter },
      })
      expect(moved.status).toBe(200)
      expect((await client().call('GET', '/v1/currencies', { apiKey, headers, query })).status).toBe(200)
      // Another key in the same scenario has its own window.
      expect((await client().call('GET', '/v1/currencies', { headers, query })).status).toBe(200)
    })

    it('runs service-unavailable: every API call answers 503 and changes nothing; the control API still works', async () => {
      const apiKey = newApiKey()
      const headers = inScenario('service-unavailable')
      const body = {
        amount: '1',
        invoiceCurrency: 'FAU-sepolia',
        paymentCurrency: 'FAU-sepolia',
        payee: `0x${'1'.repeat(40)}`,
      }
      const created = await client().call('POST', '/v2/request', { apiKey, headers, body })
      expect(created.status).toBe(503)
      expect(created.body).toEqual({ statusCode: 503, message: 'Service Unavailable' })
      expect((await client().call('GET', '/v1/currencies', { apiKey, headers })).status).toBe(503)
      const world = t.sandbox.shared.tenants.peek(apiKey, 'service-unavailable')!
      expect(requestState(world).requests.size).toBe(0)
      const journal = await client().call('GET', '/__sandbox/journal', { apiKey, query: { type: 'call' } })
      expect(journal.status).toBe(200)
      expect(journal.body.entries.map((e: { status: number }) => e.status)).toEqual([503, 503])
    })

    it('runs slow: API calls take the scenario latency unless x-sandbox-delay overrides it', async () => {
      const apiKey = newApiKey()
      const headers = inScenario('slow')
      const started = Date.now()
      const res = await client().call('GET', '/v1/currencies', {
        apiKey,
        headers,
        query: { id: 'FAU-sepolia' },
      })
      expect(res.status).toBe(200)
      expect(Date.now() - started).toBeGreaterThanOrEqual(2000)
      const state = await client().call('GET', '/__sandbox/scenario', { apiKey, headers })
      expect(state.body.rules).toMatchObject({ latencyMs: 2000, offrampOutcome: 'fiat_sent' })
      const quick = Date.now()
      const overridden = await client().call('GET', '/v1/currencies', {
        apiKey,
        headers: { ...headers, 'x-sandbox-delay': '0' },
        query: { id: 'FAU-sepolia' },
      })
      expect(overridden.status).toBe(200)
      expect(Date.now() - quick).toBeLessThan(1500)
    })

    it('answers 501 naming what is missing for a scenario that is pending in this version', async () => {
      const res = await client().call('GET', '/v1/currencies', { headers: inScenario('needs-the-moon') })
      expect(res.status).toBe(501)
      expect(res.body).toMatchObject({ statusCode: 501, error: 'Not Implemented' })
      expect(res.body.message).toContain('it needs a moon landing')
    })

    it('runs request-paid: a request paid in full on chain', async () => {
      const apiKey = newApiKey()
      const headers = inScenario('request-paid')
      const state = await client().call('GET', '/__sandbox/scenario', { apiKey, headers })
      const read = await client().call('GET', `/v2/request/${state.body.ids.requestId}`, { apiKey, headers })
      expect(read.body).toMatchObject({ hasBeenPaid: true, status: 'paid', txHash: state.body.ids.txHash })
      const events = await client().call('GET', '/__sandbox/journal', { apiKey, query: { type: 'event' } })
      expect(events.body.entries.map((e: { event: string }) => e.event)).toContain('payment.confirmed')
    })

    it('runs request-partially-paid: 40 of 100 paid on chain, /pay asks for the remaining 60', async () => {
      const apiKey = newApiKey()
      const headers = inScenario('request-partially-paid')
      const state = await client().call('GET', '/__sandbox/scenario', { apiKey, headers })
      const { requestId, payer } = state.body.ids
      const read = await client().call('GET', `/v2/request/${requestId}`, { apiKey, headers })
      expect(read.body).toMatchObject({ hasBeenPaid: false, status: 'partially_paid' })
      const pay = await client().call('GET', `/v2/request/${requestId}/pay`, {
        apiKey,
        headers,
        query: { wallet: payer },
      })
      expect(pay.body.metadata.hasEnoughBalance).toBe(true)
    })
  },
)
