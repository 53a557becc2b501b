// On a shared listener a trigger funds its payer with mints of the deployer every key shares, like the faucet: it
// counts in the key's faucet window (30 a minute), so a stranger looping triggers (or an agent's pay tool, which is
// one) cannot hold the deployer's queue; another key's faucet and triggers still answer.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server.ts'

let server: RunningServer
beforeAll(async () => {
  server = await startServer({ port: 0, exposed: true, log: () => {} })
}, 60_000)
afterAll(async () => {
  await server?.close()
})

async function call(method: string, path: string, apiKey: string, body: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  const text = await res.text()
  // biome-ignore lint/suspicious/noExplicitAny: an answer as the test reads it
  let parsed: any = text
  try {
    parsed = JSON.parse(text)
  } catch {}
  return { status: res.status, body: parsed, text }
}

const address = '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7'

it("counts a trigger in the key's faucet window on a shared listener", async () => {
  const stranger = 'sk_stranger_looping_mints'
  const mint = { address, currency: 'FAU-sepolia', amount: '1' }
  for (let i = 0; i < 30; i++) {
    const res = await call('POST', '/__sandbox/faucet', stranger, mint)
    expect(res.status, res.text).toBe(200)
  }
  const trigger = await call('POST', '/__sandbox/trigger', stranger, { event: 'payment.confirmed' })
  expect(trigger.status, trigger.text).toBe(429)
  expect(trigger.body).toMatchObject({ statusCode: 429, error: 'Too Many Requests' })
  expect(trigger.body.message).toMatch(/30 faucet calls and triggers this minute/)
  // another key is not held back
  const other = await call('POST', '/__sandbox/trigger', 'sk_another_key', { event: 'payment.confirmed' })
  expect(other.status, other.text).toBe(201)
}, 120_000)
