// The outage itself, watched over both transports: the embedded anvil SIGKILLed, health answers 503 `degraded` with
// the supervisor's reason, calls that need the chain answer 503 in the service's error shape (never 500), then
// anvil is back within 2 s of its restart with a paid request still paid. A real restart takes ~60 ms after up to
// 200 ms to notice (bench/chain-restart.ts measures it), too short for a call to fail inside it: this file's
// sandbox holds anvil down for RESTART_DELAY_MS first (SandboxOptions.chainRestartDelayMs, test only).
import { expect, it } from 'vitest'
import type { StartedChain } from '../../src/chain/index.ts'
import { execute, freshAddress, until } from '../support/chain.ts'
import { newApiKey, useTransports } from '../support/clients.ts'
import { recurringBody } from '../support/payouts.ts'

const RESTART_DELAY_MS = 4000
const logged: string[] = []
const t = useTransports(newApiKey, {
  chainRestartDelayMs: RESTART_DELAY_MS,
  log: (m) => logged.push(m),
})

it('answers 503 degraded and 503 to chain calls while anvil is down, then 200 within 2 s of its restart', async () => {
  const apiKey = newApiKey()
  const [http] = t.clients
  const chain = t.sandbox.chain! as StartedChain
  const payee = freshAddress()
  const paid = await http!.call('POST', '/v2/request', {
    apiKey,
    body: { amount: '3', invoiceCurrency: 'FAU-sepolia', paymentCurrency: 'FAU-sepolia', payee },
  })
  const paidStatus = () => http!.call('GET', `/v2/request/${paid.body.requestId}`, { apiKey })
  const pay = await http!.call('GET', `/v2/request/${paid.body.requestId}/pay`, { apiKey })
  await execute(t.sandbox, pay.body.transactions, 1)
  await until(paidStatus, (r) => r.body.hasBeenPaid)
  // requests to pay during the outage (creating one needs no chain)
  const unpaid = await Promise.all(
    t.clients.map(async (client) => {
      const created = await client.call('POST', '/v2/request', {
        apiKey,
        body: { amount: '1', invoiceCurrency: 'FAU-sepolia', paymentCurrency: 'FAU-sepolia', payee },
      })
      return created.body.requestId as string
    }),
  )
  await t.sandbox.shared.supervisors.get('sepolia')!.save()

  const pid = chain.pid!
  const killedAt = performance.now()
  process.kill(pid, 'SIGKILL')
  // health: 503 in the error shape, naming the dead anvil and the state it will come back with
  for (const client of t.clients) {
    const { value: health } = await until(
      () => client.call('GET', '/__sandbox/health', { apiKey: null }),
      (r) => r.status === 503 && /exited/.test(r.body.reason),
      { timeoutMs: 2000 },
    )
    expect(health.body).toMatchObject({
      statusCode: 503,
      error: 'Service Unavailable',
      status: 'degraded',
      message: expect.stringMatching(/^Chain unavailable: /),
      reason: expect.stringMatching(
        new RegExp(`^anvil of sepolia \\(pid ${pid}\\) exited at .*; restarting it with the state saved at `),
      ),
    })
  }
  // calls that need the chain, both transports at once: 503 in the service's shape, never 500
  const chainCalls = await Promise.all(
    t.clients.flatMap((client, i) => [
      client.call('GET', `/v2/request/${unpaid[i]}/pay`, {
        apiKey,
        query: { wallet: chain.accounts[5]!.address },
      }),
      // a recurring payout reads the chain (the payer's permit nonce and allowance); a one-time one does not
      client.call('POST', '/v2/payouts', { apiKey, body: recurringBody(chain.accounts[5]!.address) }),
    ]),
  )
  expect(performance.now() - killedAt).toBeLessThan(RESTART_DELAY_MS)
  for (const answer of chainCalls) {
    expect([answer.status, answer.body]).toEqual([503, expect.anything()])
    expect(answer.body).toMatchObject({
      statusCode: 503,
      error: 'Service Unavailable',
      message: expect.stringMatching(/^Chain unavailable: /),
    })
  }

  // back: health 200 within 2 s of the restart (the held-down time aside), the paid request still paid
  const { value: up } = await until(
    () => http!.call('GET', '/__sandbox/health', { apiKey: null }),
    (r) => r.status === 200,
    { timeoutMs: RESTART_DELAY_MS + 3000, intervalMs: 10 },
  )
  const outageMs = performance.now() - killedAt
  expect(outageMs - RESTART_DELAY_MS).toBeLessThan(2000)
  expect(up.body.chains[0]).toMatchObject({ network: 'sepolia', restarts: 1 })
  await t.sandbox.detectors.get('sepolia')!.sync()
  expect((await paidStatus()).body).toMatchObject({ hasBeenPaid: true, status: 'paid' })
  // and the chain works: one of the requests refused meanwhile is paid and detected now
  const retry = await http!.call('GET', `/v2/request/${unpaid[0]}/pay`, { apiKey })
  expect(retry.status).toBe(200)
  await execute(t.sandbox, retry.body.transactions, 1)
  await until(
    () => http!.call('GET', `/v2/request/${unpaid[0]}`, { apiKey }),
    (r) => r.body.hasBeenPaid,
  )
  expect(logged.filter((m) => m.includes('unexpected error'))).toEqual([])
})
