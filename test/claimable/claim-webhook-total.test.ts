// Each webhook delivery attempt holds a connection until its receiver answers or the attempt times out. Every key's
// attempts under way together are at most --webhook-total, claimed keys' (--claimable) at most half of them: 100
// claimed keys, each within its own --webhook-rate, otherwise held 9,300 connections towards a receiver that never
// answers, on the way to every file descriptor of the process. An attempt past the bound is not sent (its record
// names the flag) and retried as a failed one is; the operator's keys still get theirs.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server.ts'
import { fetchAs } from '../support/dispatch.ts'
import { until } from '../support/wait.ts'

let receiver: Server
let server: RunningServer
/** requests the receiver holds (never answered until the test ends), by path */
const held: { path: string; res: ServerResponse }[] = []
beforeAll(async () => {
  receiver = createServer((req: IncomingMessage, res) => {
    req.resume()
    held.push({ path: req.url ?? '', res })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const port = (receiver.address() as AddressInfo).port
  server = await startServer({
    port: 0,
    chain: false,
    exposed: true,
    log: () => {},
    apiKeys: ['sk_operator'],
    claimable: { perAddressPerHour: 100, livePerAddress: 100 },
    webhooks: { hosts: [`127.0.0.1:${port}`], attemptsTotal: 4, timeoutMs: 20_000, retryDelaysMs: [60_000] },
  })
  // biome-ignore lint/suspicious/noExplicitAny: the URL the webhooks go to
  ;(globalThis as any).receiverUrl = `http://127.0.0.1:${port}`
})
afterAll(async () => {
  for (const { res } of held) res.end('ok')
  await server?.close()
  await new Promise((resolve) => receiver?.close(resolve))
})

const call = fetchAs(() => server.url)
// biome-ignore lint/suspicious/noExplicitAny: the URL the webhooks go to
const hook = (name: string) => ({ url: `${(globalThis as any).receiverUrl}/${name}` })

it("holds claimed keys' delivery attempts under way to half of --webhook-total: the operator's still go out", async () => {
  const claimed = (await call('POST', '/__sandbox/sandboxes', undefined)).body.key as string
  for (let i = 0; i < 3; i++)
    expect((await call('POST', '/v2/webhook', claimed, hook(`claimed-${i}`))).status).toBe(201)
  // one test event: three attempts at once, of which two are sent (half of 4) and held by the receiver
  expect((await call('POST', '/v2/webhook/test', claimed, { eventType: 'payment.confirmed' })).status).toBe(
    201,
  )
  const { value: deliveries } = await until(
    async () =>
      (await call('GET', '/__sandbox/webhooks/deliveries', claimed)).body as {
        attempts: { error: string | null }[]
      }[],
    (list) => list.filter((d) => d.attempts.length > 0).length === 1 && held.length === 2,
  )
  const refused = deliveries.flatMap((d) => d.attempts).map((a) => a.error)
  expect(refused).toHaveLength(1)
  expect(refused[0]).toMatch(
    /not sent: .*claimable sandboxes together hold at most 2 of them.*--webhook-total/,
  )
  // the operator's key gets the other half
  expect((await call('POST', '/v2/webhook', 'sk_operator', hook('operator'))).status).toBe(201)
  expect(
    (await call('POST', '/v2/webhook/test', 'sk_operator', { eventType: 'payment.confirmed' })).status,
  ).toBe(201)
  await until(
    () => held.some((h) => h.path === '/operator'),
    (seen) => seen,
  )
  expect(held.filter((h) => h.path.startsWith('/claimed-'))).toHaveLength(2)
}, 30_000)
