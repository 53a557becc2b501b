// The control API a key drives its own sandbox with: reset, faucet, journal, events, webhooks.
import { expect, it } from 'vitest'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'

const t = useTransports()

const invoice = {
  amount: '10',
  invoiceCurrency: 'FAU-sepolia',
  paymentCurrency: 'FAU-sepolia',
  payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
}
const freshAddress = () => `0x${newApiKey().slice(-16).padStart(40, 'a')}`

describeTransports(
  'the control API through %s',
  () => t,
  (client) => {
    it("resets the caller's worlds only: its requests are gone, another key's stay", async () => {
      const alice = newApiKey()
      const bob = newApiKey()
      const mine = await client().call('POST', '/v2/request', { apiKey: alice, body: invoice })
      const theirs = await client().call('POST', '/v2/request', { apiKey: bob, body: invoice })
      const seeded = await client().call('PUT', '/__sandbox/scenario', {
        apiKey: alice,
        body: { scenario: 'insufficient-funds' },
      })
      const reset = await client().call('POST', '/__sandbox/reset', { apiKey: alice })
      expect(reset.status).toBe(200)
      expect(reset.body).toEqual({ reset: true, scenario: 'insufficient-funds' })
      expect(
        (await client().call('GET', `/v2/request/${mine.body.requestId}`, { apiKey: alice })).status,
      ).toBe(404)
      expect(
        (await client().call('GET', `/v2/request/${theirs.body.requestId}`, { apiKey: bob })).status,
      ).toBe(200)
      // The chosen scenario stays and is seeded afresh: a new request, not the old one.
      const again = await client().call('GET', '/__sandbox/scenario', { apiKey: alice })
      expect(again.body.scenario).toBe('insufficient-funds')
      expect(again.body.ids.requestId).not.toBe(seeded.body.ids.requestId)
      // The journal starts again too: only the call made after the reset is in it.
      const journal = await client().call('GET', '/__sandbox/journal', { apiKey: alice })
      expect(journal.body.entries.map((e: { status: number }) => e.status)).toEqual([404])
    })

    it('mints tokens with the faucet (added to the balance) and sets ETH', async () => {
      const address = freshAddress()
      const first = await client().call('POST', '/__sandbox/faucet', {
        body: { address, currency: 'USDC-sepolia', amount: '12.5' },
      })
      expect(first.status).toBe(200)
      expect(first.body).toMatchObject({
        currency: 'USDC-sepolia',
        network: 'sepolia',
        amount: '12.5',
        balance: '12.5',
      })
      expect(first.body.txHash).toMatch(/^0x[0-9a-f]{64}$/)
      const second = await client().call('POST', '/__sandbox/faucet', {
        body: { address, currency: 'USDC-sepolia', amount: '1' },
      })
      expect(second.body.balance).toBe('13.5')
      const chain = t.sandbox.chain!
      expect(await chain.balanceOf(chain.tokens['USDC-sepolia']!, address as `0x${string}`)).toBe(13_500_000n)
      const eth = await client().call('POST', '/__sandbox/faucet', {
        body: { address, currency: 'ETH-sepolia-sepolia', amount: '2' },
      })
      expect(eth.body).toMatchObject({ balance: '2', txHash: null })
      const emptied = await client().call('POST', '/__sandbox/faucet', {
        body: { address, currency: 'ETH-sepolia-sepolia', amount: '0' },
      })
      expect(emptied.body.balance).toBe('0')
      expect(await chain.balanceOf('native', address as `0x${string}`)).toBe(0n)
    })

    it.each([
      [{ address: '0x12', currency: 'FAU-sepolia', amount: '1' }, 'address'],
      [{ address: `0x${'b'.repeat(40)}`, currency: 'NOPE', amount: '1' }, 'not a token'],
      [{ address: `0x${'b'.repeat(40)}`, currency: 'USD', amount: '1' }, 'not a token'],
      [{ address: `0x${'b'.repeat(40)}`, currency: 'USDC-base', amount: '1' }, 'not a live network'],
      [{ address: `0x${'b'.repeat(40)}`, currency: 'USDC-sepolia', amount: '1.1234567' }, 'decimals'],
      [{ address: `0x${'b'.repeat(40)}`, currency: 'FAU-sepolia', amount: '-1' }, 'amount'],
    ])('refuses a faucet call it cannot do with 400 (%o)', async (body, words) => {
      const res = await client().call('POST', '/__sandbox/faucet', { body })
      expect(res.status).toBe(400)
      expect(JSON.stringify(res.body)).toContain(words)
    })

    it("refuses to set the native balance of the sandbox's own accounts (they pay every tenant's gas)", async () => {
      const sepolia = t.sandbox.shared.chains.get('sepolia')!
      const operator = sepolia.roles.operator.address
      const before = await sepolia.balanceOf('native', operator)
      for (const role of Object.values(sepolia.roles)) {
        const res = await client().call('POST', '/__sandbox/faucet', {
          body: { address: role.address.toLowerCase(), currency: 'ETH-sepolia-sepolia', amount: '0' },
        })
        expect(res.status).toBe(400)
        expect(res.body.message).toContain("sandbox's own accounts")
      }
      expect(await sepolia.balanceOf('native', operator)).toBe(before)
      // tokens are only added: minting to the operator stays allowed
      const minted = await client().call('POST', '/__sandbox/faucet', {
        body: { address: operator, currency: 'FAU-sepolia', amount: '1' },
      })
      expect(minted.status).toBe(200)
    })

    it('journals API calls, newest first, filterable by type, path and since', async () => {
      const apiKey = newApiKey()
      const created = await client().call('POST', '/v2/request', { apiKey, body: invoice })
      const mid = new Date().toISOString()
      await new Promise((r) => setTimeout(r, 5))
      await client().call('GET', `/v2/request/${created.body.requestId}`, { apiKey })
      await client().call('GET', '/v1/currencies', { apiKey, query: { id: 'FAU-sepolia' } })
      await client().call('GET', '/v2/request/nope', { apiKey })
      const all = await client().call('GET', '/__sandbox/journal', { apiKey })
      expect(all.status).toBe(200)
      const calls = all.body.entries
      expect(
        calls.map(
          (e: { method: string; path: string; status: number }) => `${e.method} ${e.path} ${e.status}`,
        ),
      ).toEqual([
        'GET /v2/request/nope 404',
        'GET /v1/currencies 200',
        `GET /v2/request/${created.body.requestId} 200`,
        'POST /v2/request 201',
      ])
      expect(calls[3]).toMatchObject({
        type: 'call',
        scenario: 'default',
        requestBody: invoice,
        responseBody: created.body,
      })
      expect(calls[2].id > calls[3].id).toBe(true)
      const byPath = await client().call('GET', '/__sandbox/journal', {
        apiKey,
        query: { path: '/v2/request' },
      })
      expect(byPath.body.entries).toHaveLength(3)
      const since = await client().call('GET', '/__sandbox/journal', { apiKey, query: { since: mid } })
      expect(since.body.entries).toHaveLength(3)
      const limited = await client().call('GET', '/__sandbox/journal', { apiKey, query: { limit: '1' } })
      expect(limited.body.entries).toHaveLength(1)
      const events = await client().call('GET', '/__sandbox/journal', { apiKey, query: { type: 'event' } })
      expect(events.body.entries).toEqual([])
      const other = await client().call('GET', '/__sandbox/journal')
      expect(other.body.entries).toEqual([])
      for (const query of [{ type: 'calls' }, { since: 'yesterday' }, { limit: '0' }]) {
        expect((await client().call('GET', '/__sandbox/journal', { apiKey, query })).status).toBe(400)
      }
    })

    it('journals the events of every scenario world of the key with their payloads', async () => {
      const apiKey = newApiKey()
      await t.sandbox.control.emit(apiKey, 'payment.failed', {
        requestId: 'r1',
        subStatus: 'insufficient_funds',
      })
      await t.sandbox.control.emit(
        apiKey,
        'compliance.updated',
        { clientUserId: 'a@b.c', kycStatus: 'approved' },
        'insufficient-funds',
      )
      const res = await client().call('GET', '/__sandbox/journal', { apiKey, query: { type: 'event' } })
      expect(
        res.body.entries.map((e: { event: string; scenario: string }) => `${e.event} ${e.scenario}`),
      ).toEqual(['compliance.updated insufficient-funds', 'payment.failed default'])
      expect(res.body.entries[1].payload).toEqual({
        event: 'payment.failed',
        requestId: 'r1',
        subStatus: 'insufficient_funds',
      })
      const one = await client().call('GET', '/__sandbox/journal', {
        apiKey,
        query: { event: 'payment.failed' },
      })
      expect(one.body.entries).toHaveLength(1)
    })

    it('emits and lists events and registers webhooks, and refuses bad input with a 400 that names the field', async () => {
      const apiKey = newApiKey()
      const payload = { requestId: 'r-1', amount: '1' }
      const emitted = await client().call('POST', '/__sandbox/events', {
        apiKey,
        body: { type: 'payment.confirmed', payload },
      })
      expect(emitted.status).toBe(201)
      expect(emitted.body).toMatchObject({ type: 'payment.confirmed', payload })
      const listed = await client().call('GET', '/__sandbox/events', {
        apiKey,
        query: { type: 'payment.confirmed' },
      })
      expect(listed.body.events.map((e: { id: string }) => e.id)).toEqual([emitted.body.id])
      const hook = await client().call('POST', '/__sandbox/webhooks', {
        apiKey,
        body: { url: 'https://hooks.example/in', secret: 'ab'.repeat(32) },
      })
      expect(hook.status).toBe(201)

      const refused: [string, string, unknown, Record<string, string>, RegExp][] = [
        ['POST', '/__sandbox/events', { type: 'payment.nope', payload }, {}, /type/],
        ['POST', '/__sandbox/events', { type: 'payment.confirmed', payload: 'x' }, {}, /payload/],
        ['POST', '/__sandbox/events', { type: 'payment.confirmed', payload, extra: 1 }, {}, /extra/],
        ['GET', '/__sandbox/events', undefined, { type: 'payment.nope' }, /type/],
        ['POST', '/__sandbox/webhooks', { url: 'ftp://hooks.example/in' }, {}, /url/],
        ['POST', '/__sandbox/webhooks', { url: 'https://hooks.example/in', secret: 'XY' }, {}, /secret/],
      ]
      for (const [method, path, body, query, field] of refused) {
        const res = await client().call(method, path, { apiKey, body, query })
        expect(
          [res.status, res.body.statusCode],
          `${method} ${path} ${JSON.stringify(body ?? query)}`,
        ).toEqual([400, 400])
        expect(JSON.stringify(res.body)).toMatch(field)
      }
      // nothing refused was kept
      const after = await client().call('GET', '/__sandbox/events', { apiKey })
      expect(after.body.events).toHaveLength(1)
    })

    it("hands out /rpc URLs at the sandbox's public URL behind a proxy, never an unchecked host", async () => {
      const proxied = await client().call('GET', '/__sandbox/chain', {
        apiKey: null,
        headers: {
          'x-forwarded-proto': 'https',
          'x-forwarded-host': 'sandbox.example',
          'x-forwarded-prefix': '/sb',
        },
      })
      expect(proxied.status).toBe(200)
      expect(proxied.body.rpcUrl).toBe('https://sandbox.example/sb/rpc')
      expect(proxied.body.chains[0].rpcUrl).toBe(`https://sandbox.example/sb/rpc/${proxied.body.network}`)
      const forged = await client().call('GET', '/__sandbox/chain', {
        apiKey: null,
        headers: { 'x-forwarded-host': 'evil.example/"><script>' },
      })
      expect(forged.body.rpcUrl).toMatch(/^https?:\/\/localhost\/rpc$/)
    })
  },
)
