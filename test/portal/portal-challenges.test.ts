// Wallet-login challenges are bounded per client address (--max-challenges): a flood from one address answers 429
// naming the bound once it holds its most, and never drops another address's pending challenge, whose signature
// still logs in. Past the sandbox-wide bound (many addresses), the address holding the most loses its oldest first.
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NeutralResponse } from '../../src/contract/neutral.ts'
import { MAX_PENDING_CHALLENGES } from '../../src/resources/portal/index.ts'
import { type RunningServer, startServer } from '../../src/server.ts'

let server: RunningServer
beforeAll(async () => {
  // on a shared listener's defaults: 20 waiting challenges per address
  server = await startServer({ chain: false, challengesPerAddress: 20 })
})
afterAll(async () => server?.close())

/** A call as the HTTP transport hands it over, from `address` behind a proxy on this machine. */
function call(path: string, body: unknown, address: string): Promise<NeutralResponse> {
  return server.sandbox.dispatch({
    method: 'POST',
    path,
    query: {},
    headers: {
      'content-type': 'application/json',
      host: new URL(server.url).host,
      'x-forwarded-for': address,
    },
    rawBody: JSON.stringify(body),
    remoteAddress: '127.0.0.1',
  })
}

const bodyOf = (response: NeutralResponse) =>
  (response.text !== undefined ? JSON.parse(response.text) : response.body) as Record<string, string>

/** A wallet's pending challenge, taken from `address`. */
async function pending(address: string) {
  const wallet = privateKeyToAccount(generatePrivateKey())
  const challenge = await call('/v1/auth/wallet/challenge', { address: wallet.address }, address)
  expect(challenge.status).toBe(201)
  return { wallet, challenge: bodyOf(challenge) }
}

/** Signs and submits a pending challenge from `address`. */
async function verify({ wallet, challenge }: Awaited<ReturnType<typeof pending>>, address: string) {
  const signature = await wallet.signMessage({ message: challenge.message! })
  return call('/v1/auth/wallet/verify', { ...challenge, signature }, address)
}

describe('wallet-login challenges per client address', () => {
  it("answers a flood from one address 429 naming --max-challenges, and another address's challenge still logs in", async () => {
    const user = await pending('198.51.100.7')
    const flooder = privateKeyToAccount(generatePrivateKey()).address
    const statuses = new Map<number, number>()
    let refused: NeutralResponse | undefined
    for (let i = 0; i < MAX_PENDING_CHALLENGES + 1; i++) {
      const answer = await call('/v1/auth/wallet/challenge', { address: flooder }, '203.0.113.66')
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
      if (answer.status === 429) refused ??= answer
    }
    // the user's challenge was kept: its signature logs in
    const verified = await verify(user, '198.51.100.7')
    expect(verified.status, JSON.stringify(bodyOf(verified))).toBe(201)
    expect(bodyOf(verified).address).toBe(user.wallet.address)
    expect(statuses.get(201)).toBe(20)
    expect(statuses.get(429)).toBe(MAX_PENDING_CHALLENGES + 1 - 20)
    expect(bodyOf(refused!)).toMatchObject({ statusCode: 429, error: 'Too Many Requests' })
    expect(bodyOf(refused!).message).toContain('At most 20 wallet-login challenges')
    expect(bodyOf(refused!).message).toContain('--max-challenges')
    expect(Number(refused!.headers['retry-after'])).toBeGreaterThan(0)
  }, 60_000)

  it("counts an IPv6 address with its /64: a host's many addresses are one", async () => {
    const flooder = privateKeyToAccount(generatePrivateKey()).address
    let created = 0
    for (let i = 1; i <= 30; i++) {
      const answer = await call(
        '/v1/auth/wallet/challenge',
        { address: flooder },
        `2001:db8:1:2::${i.toString(16)}`,
      )
      if (answer.status === 201) created++
    }
    expect(created).toBe(20)
  })

  it('past the sandbox-wide bound drops the oldest of the address holding the most, never a lone pending challenge', async () => {
    const user = await pending('198.51.100.8')
    const flooder = privateKeyToAccount(generatePrivateKey()).address
    // many addresses of 20 each, past the sandbox-wide bound
    for (let i = 0; i < MAX_PENDING_CHALLENGES / 20 + 50; i++)
      for (let j = 0; j < 20; j++) {
        const answer = await call(
          '/v1/auth/wallet/challenge',
          { address: flooder },
          `10.${Math.floor(i / 250)}.${i % 250}.1`,
        )
        expect(answer.status).toBe(201)
      }
    expect(server.sandbox.shared.portal.walletChallenges.size).toBe(MAX_PENDING_CHALLENGES)
    const verified = await verify(user, '198.51.100.8')
    expect(verified.status, JSON.stringify(bodyOf(verified))).toBe(201)
  }, 60_000)
})
