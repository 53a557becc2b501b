// 50 tenants at once, spread over scenarios, creating and reading concurrently: nobody sees anybody else's
// requests, seeded ids, journal or rate-limit window.
import { expect, it } from 'vitest'
import { requestState } from '../../src/resources/requests/index.ts'
import { type ApiClient, describeTransports, newApiKey, useTransports } from '../support/clients.ts'

const t = useTransports()

const TENANTS = 50
const PER_TENANT = 5
const scenarios = ['default', 'insufficient-funds', 'rate-limited'] as const

interface Outcome {
  apiKey: string
  scenario: (typeof scenarios)[number]
  created: string[]
  statuses: number[]
  seeded: Record<string, string>
}

async function runTenant(client: ApiClient, index: number): Promise<Outcome> {
  const apiKey = newApiKey()
  const scenario = scenarios[index % scenarios.length]!
  const headers = { 'x-sandbox-scenario': scenario }
  const payee = `0x${(index + 1).toString(16).padStart(40, '0')}`
  const seeded =
    scenario === 'rate-limited'
      ? {}
      : (await client.call('GET', '/__sandbox/scenario', { apiKey, headers })).body.ids
  const responses = await Promise.all(
    Array.from({ length: PER_TENANT }, (_, i) =>
      client.call('POST', '/v2/request', {
        apiKey,
        headers,
        body: {
          amount: `${index}.${i + 1}`,
          invoiceCurrency: 'FAU-sepolia',
          paymentCurrency: 'FAU-sepolia',
          payee,
        },
      }),
    ),
  )
  const created = responses.filter((r) => r.status === 201).map((r) => r.body.requestId as string)
  if (scenario !== 'rate-limited') {
    const reads = await Promise.all(
      created.map((id) => client.call('GET', `/v2/request/${id}`, { apiKey, headers })),
    )
    for (const read of reads) expect(read.status).toBe(200)
  }
  return { apiKey, scenario, created, statuses: responses.map((r) => r.status), seeded }
}

describeTransports(
  '50 parallel tenants through %s',
  () => t,
  (client) => {
    it('create and read concurrently in their own worlds with no cross-talk', async () => {
      const outcomes = await Promise.all(Array.from({ length: TENANTS }, (_, i) => runTenant(client(), i)))

      for (const o of outcomes) {
        if (o.scenario === 'rate-limited') {
          // Each tenant has its own window: exactly 2 of its 5 calls pass, whatever the others do.
          expect(o.statuses.filter((s) => s === 201)).toHaveLength(2)
          expect(o.statuses.filter((s) => s === 429)).toHaveLength(3)
        } else {
          expect(o.statuses).toEqual(Array(PER_TENANT).fill(201))
        }
        const world = t.sandbox.shared.tenants.peek(o.apiKey, o.scenario)!
        const seededCount = o.scenario === 'insufficient-funds' ? 1 : 0
        expect(requestState(world).requests.size).toBe(o.created.length + seededCount)
        expect(
          new Set(
            requestState(world)
              .requests.all()
              .map((r) => r.requestId),
          ),
        ).toEqual(new Set([...o.created, ...(seededCount ? [o.seeded.requestId!] : [])]))
        const journal = t.sandbox.control.journal(o.apiKey, { types: ['call'] })
        expect(journal.every((e) => e.scenario === o.scenario)).toBe(true)
        expect(journal.filter((e) => e.type === 'call' && e.method === 'POST')).toHaveLength(PER_TENANT)
      }

      const all = outcomes.flatMap((o) => o.created)
      expect(new Set(all).size).toBe(all.length)
      const payers = outcomes.filter((o) => o.scenario === 'insufficient-funds').map((o) => o.seeded.payer)
      expect(new Set(payers).size).toBe(payers.length)

      // Every tenant's requests are invisible to its neighbour, in any scenario.
      await Promise.all(
        outcomes.map(async (o, i) => {
          const neighbour = outcomes[(i + 1) % outcomes.length]!
          const id = o.created[0] ?? o.seeded.requestId
          if (!id) return
          for (const scenario of scenarios) {
            const res = await client().call('GET', `/v2/request/${id}`, {
              apiKey: neighbour.apiKey,
              headers: { 'x-sandbox-scenario': scenario === 'rate-limited' ? 'default' : scenario },
            })
            expect(res.status).toBe(404)
          }
        }),
      )
    })
  },
)
