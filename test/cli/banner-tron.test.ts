// The ready banner names the Tron full node when the `tron` network runs: docs/tron.md tells TronWeb users to pass
// `fullHost: '<sandbox>/tron'`, so the banner prints that URL (and the JSON banner carries it) as it prints each
// chain's JSON-RPC URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bannerJson, bannerLines } from '../../src/banner.ts'
import { type RunningServer, startServer } from '../../src/server.ts'

let server: RunningServer
beforeAll(async () => {
  server = await startServer({ port: 0, networks: ['sepolia', 'tron'] })
}, 120_000)
afterAll(async () => {
  await server?.close()
})

describe('the banner with the tron network (docs/tron.md)', () => {
  it("prints TronWeb's fullHost as text and in the JSON banner", async () => {
    const fullHost = `${server.url}/tron`
    const info = await (await fetch(`${server.url}/__sandbox/chain`)).json()
    expect(info.chains.find((c: { network: string }) => c.network === 'tron').tron.fullHost).toBe(fullHost)
    const lines = bannerLines(server, { readyMs: 1 })
    expect(lines.filter((l) => l.includes(fullHost))).toEqual([
      expect.stringMatching(/^ {2}tron: +TronWeb fullHost /),
    ])
    const json = bannerJson(server, { readyMs: 1 }) as { chains: { network: string; fullHost?: string }[] }
    expect(json.chains.find((c) => c.network === 'tron')?.fullHost).toBe(fullHost)
    expect(json.chains.find((c) => c.network === 'sepolia')).not.toHaveProperty('fullHost')
  })
})
