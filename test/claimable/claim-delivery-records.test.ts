// Each webhook delivery record keeps, for each attempt, the receiver's headers and the start of its body: a key's 500
// records reached about 20 MB against a receiver answering large headers, and --claimable hands out up to
// --max-claims keys. The records every key keeps in memory together are bounded (64 MB), claimed keys' at most half:
// past it a claimed key's oldest records go, and the operator's key keeps all of its own.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server.ts'
import { fetchAs } from '../support/dispatch.ts'
import { until } from '../support/wait.ts'

let receiver: Server
let server: RunningServer
let receiverUrl = ''
beforeAll(async () => {
  // answers every delivery 200 with 8 KB of headers
  receiver = createServer((req, res) => {
    req.resume()
    res.writeHead(200, { 'x-pad-1': 'a'.repeat(4000), 'x-pad-2': 'b'.repeat(4000) })
    res.end('ok')
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const port = (receiver.address() as AddressInfo).port
  receiverUrl = `http://127.0.0.1:${port}`
  server = await startServer({
    port: 0,
    chain: false,
    exposed: true,
    log: () => {},
    apiKeys: ['sk_operator'],
    claimable: { perAddressPerHour: 100, livePerAddress: 100 },
    // about 20 records of 10 KB, claimed keys' about 10
    webhooks: { hosts: [`127.0.0.1:${port}`], recordBytesTotal: 200_000 },
  })
})
afterAll(async () => {
  await server?.close()
  await new Promise((resolve) => receiver?.close(resolve))
})

const call = fetchAs(() => server.url)
/** Sends `n` test events to the key's one webhook, each answered before the next. */
const deliver = async (key: string, n: number) => {
  expect((await call('POST', '/v2/webhook', key, { url: `${receiverUrl}/${key}` })).status).toBe(201)
  for (let i = 0; i < n; i++) {
    const sent = await call('POST', '/v2/webhook/test', key, { eventType: 'payment.confirmed' })
    expect(sent.status).toBe(201)
    const id = sent.body.deliveryIds[0] as string
    await until(
      async () =>
        (await call('GET', '/__sandbox/webhooks/deliveries', key)).body as { id: string; state: string }[],
      (list) => list.find((d) => d.id === id)?.state !== 'pending',
    )
  }
  return (await call('GET', '/__sandbox/webhooks/deliveries', key)).body as {
    id: string
    attempts: unknown[]
  }[]
}

it("keeps claimed keys' delivery records to half of the records' total: their oldest go, the operator's stay", async () => {
  const operator = await deliver('sk_operator', 6)
  expect(operator).toHaveLength(6)
  const claimed = (await call('POST', '/__sandbox/sandboxes', undefined)).body.key as string
  const kept = await deliver(claimed, 20)
  // about 10 KB a record: half of 200,000 bytes keeps at most 10 of the 20, the newest
  expect(kept.length).toBeGreaterThan(3)
  expect(kept.length).toBeLessThanOrEqual(10)
  expect(kept.every((d) => d.attempts.length === 1)).toBe(true)
  expect((await call('GET', '/__sandbox/webhooks/deliveries', 'sk_operator')).body).toHaveLength(6)
}, 60_000)
