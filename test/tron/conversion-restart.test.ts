// A Tron request priced in fiat keeps its /pay quote across a restart with --state-dir: the payer pays the token
// amount it was quoted, after the restart and a change of rate, and the request reads paid (what answered 2xx is
// kept). payouts.mdx's Tron sample invoices in USD; the quote is the sandbox's (requests/tron-conversion.ts).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server.ts'
import { newApiKey } from '../support/clients.ts'
import { waitFor } from '../support/wait.ts'
import { freshTronAddress, payWithTronWeb, type TronStep, trc20Balance, tronInfo } from './steps.ts'

const dir = mkdtempSync(join(tmpdir(), 'sandbox-tron-quote-'))
let server: RunningServer | null = null
afterAll(async () => {
  await server?.close()
  rmSync(dir, { recursive: true, force: true })
})

const start = async () => {
  server = await startServer({ port: 0, networks: ['tron'], stateDir: dir })
  return server
}
const api = async (path: string, apiKey: string, body?: unknown) => {
  const headers = { 'x-api-key': apiKey, 'content-type': 'application/json' }
  const init: RequestInit = body ? { method: 'POST', body: JSON.stringify(body), headers } : { headers }
  const res = await fetch(`${server!.url}${path}`, init)
  return { status: res.status, body: await res.json() }
}

it('pays the quote /pay gave before a restart, at that quote, though the rate changed since', async () => {
  const apiKey = newApiKey()
  await start()
  let tron = await tronInfo(server!.url)
  const payer = tron.accounts[2]!
  const payee = freshTronAddress()
  expect(
    (await api('/__sandbox/rates', apiKey, { rates: [{ from: 'EUR', to: 'USD', rate: '1.25' }] })).status,
  ).toBe(200)
  const created = await api('/v2/request', apiKey, {
    payee,
    amount: '10',
    invoiceCurrency: 'EUR',
    paymentCurrency: 'USDT-tron',
  })
  expect(created.status).toBe(201)
  const { requestId } = created.body
  const pay = await api(`/v2/request/${requestId}/pay?wallet=${payer.address}`, apiKey)
  expect(pay.status).toBe(200)
  const steps = pay.body.transactions as TronStep[]
  await server!.close()
  server = null

  await start()
  tron = await tronInfo(server!.url)
  expect(
    (await api('/__sandbox/rates', apiKey, { rates: [{ from: 'EUR', to: 'USD', rate: '2' }] })).status,
  ).toBe(200)
  await payWithTronWeb(tron, payer, steps)
  const status = await waitFor(
    async () => {
      const res = await api(`/v2/request/${requestId}`, apiKey)
      return res.body.hasBeenPaid ? res.body : undefined
    },
    { timeoutMs: 10_000 },
  )
  expect(status.status).toBe('paid')
  expect(await trc20Balance(tron, tron.tokens['USDT-tron']!, payee)).toBe(12_500_000n)
})
