// Every mint of the faucet (and every trigger, which funds its payer) is a transaction of the one deployer all keys
// share, sent one after another. Each key has its 30 a minute, and every key together --faucet-total a minute (a
// sixth of it every 10 seconds), of which claimed keys (--claimable) take at most half: 100 claimed keys, each within its own window, otherwise held an
// operator's mint for 25 s behind theirs. Past the total, or claimed keys' share of it, 429 naming --faucet-total.
import { afterAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server.ts'

const servers: RunningServer[] = []
afterAll(async () => {
  for (const s of servers) await s.close()
})

// the window is counted before the mint: without a chain each call then answers 400 (no live network)
const start = async () => {
  const server = await startServer({
    port: 0,
    chain: false,
    exposed: true,
    log: () => {},
    apiKeys: ['sk_operator', 'sk_teammate'],
    claimable: { perAddressPerHour: 100, livePerAddress: 100 },
    // 6 every 10 seconds
    faucetTotal: 36,
  })
  servers.push(server)
  return server
}
const claim = async (server: RunningServer) =>
  ((await (await fetch(`${server.url}/__sandbox/sandboxes`, { method: 'POST' })).json()) as { key: string })
    .key
const mint = async (server: RunningServer, key: string) => {
  const response = await fetch(`${server.url}/__sandbox/faucet`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({
      address: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
      currency: 'FAU-sepolia',
      amount: '1',
    }),
  })
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: (await response.json()) as { statusCode: number; message: string },
  }
}

describe('the faucet of every key together (--faucet-total)', () => {
  it("keeps half for the operator's keys: claimed keys past their share answer 429 naming --faucet-total", async () => {
    const server = await start()
    const claimed = [await claim(server), await claim(server), await claim(server), await claim(server)]
    // each claimed key within its own window (30 a minute): together they get half of the 6 of these 10 seconds
    const answers = []
    for (const key of claimed) answers.push(await mint(server, key))
    expect(answers.map((a) => a.status)).toEqual([400, 400, 400, 429])
    const refused = answers[3]!
    expect(refused.body.statusCode).toBe(429)
    expect(refused.body.message).toMatch(
      /claimable sandboxes together hold at most 3 of them every 10 seconds.*--faucet-total/,
    )
    expect(Number(refused.retryAfter)).toBeGreaterThan(0)
    // the operator's keys get the rest, then every key is refused until the 10 seconds end
    expect((await mint(server, 'sk_operator')).status).toBe(400)
    expect((await mint(server, 'sk_teammate')).status).toBe(400)
    expect((await mint(server, 'sk_operator')).status).toBe(400)
    const over = await mint(server, 'sk_teammate')
    expect(over.status).toBe(429)
    expect(over.body.message).toMatch(
      /Every key together made 6 faucet calls these 10 seconds.*--faucet-total/,
    )
  })
})
