// Cookie sessions (email and wallet logins) do not pile up: expired ones are swept as new ones open, and one platform
// holds a bounded number at once, however often it logs in.
import { describe, expect, it } from 'vitest'
import { addressGroup, ChallengeBook, MAX_PENDING_CHALLENGES } from './challenges.ts'
import { MAX_SESSIONS_PER_PLATFORM, PortalCredentials, SESSION_SWEEP_MS } from './credentials.ts'

const IDLE = 15 * 60_000
const t0 = Date.parse('2026-11-26T09:00:00Z')

describe('PortalCredentials sessions', () => {
  it('sweeps expired sessions that were never used again', () => {
    const portal = new PortalCredentials()
    for (let i = 0; i < 100; i++)
      portal.openSession(`old-${i}`, { platformId: `p${i}`, expiresAt: t0 + IDLE, idleMs: IDLE }, t0)
    expect(portal.sessions.size).toBe(100)
    // a wallet whose session was used keeps it: each use pushes its end further
    portal.platformsById.set('p0', {
      id: 'p0',
      email: 'wallet:0x0',
      passwordSalt: '',
      passwordHash: '',
      tenant: 'wallet_0x0',
      createdAt: new Date(t0).toISOString(),
    })
    expect(portal.platformOfSession('old-0', t0 + IDLE - 1)?.id).toBe('p0')
    const later = t0 + IDLE + SESSION_SWEEP_MS
    portal.openSession('new', { platformId: 'p-new', expiresAt: later + IDLE, idleMs: IDLE }, later)
    expect([...portal.sessions.keys()].sort()).toEqual(['new', 'old-0'])
  })

  it(`keeps at most ${MAX_SESSIONS_PER_PLATFORM} live sessions per platform: logging in again ends the oldest`, () => {
    const portal = new PortalCredentials()
    for (let i = 0; i < MAX_SESSIONS_PER_PLATFORM + 30; i++)
      portal.openSession(`s-${i}`, { platformId: 'p', expiresAt: t0 + IDLE, idleMs: IDLE }, t0 + i)
    portal.openSession('other', { platformId: 'q', expiresAt: t0 + IDLE }, t0)
    expect(portal.sessions.size).toBe(MAX_SESSIONS_PER_PLATFORM + 1)
    expect(portal.sessions.has('s-0')).toBe(false)
    expect(portal.sessions.has(`s-${MAX_SESSIONS_PER_PLATFORM + 29}`)).toBe(true)
    expect(portal.sessions.has('other')).toBe(true)
    portal.endSession('other')
    portal.endSession('no-such-token')
    expect(portal.sessions.has('other')).toBe(false)
  })
})

describe('PortalCredentials wallet challenges', () => {
  it(`drops expired challenges, and past ${MAX_PENDING_CHALLENGES} waiting ones the oldest of the address holding the most`, () => {
    const portal = new PortalCredentials({ challengesPerAddress: 20 })
    const challenge = (expiresAt: number) => ({ address: '0x0', nonce: 'n', message: 'm', expiresAt })
    const book = portal.walletChallenges
    book.add('expired', challenge(t0 + 1), '198.51.100.1', t0)
    // one address with a single challenge, then addresses of 20 each up to the bound
    book.add('lone', challenge(t0 + 5 * 60_000), '198.51.100.2', t0 + 1)
    for (let i = 0; book.size < MAX_PENDING_CHALLENGES; i++)
      book.add(`c-${i}`, challenge(t0 + 5 * 60_000), `10.0.${i % 250}.${Math.floor(i / 5000) + 1}`, t0 + 1)
    expect(book.has('expired')).toBe(false)
    // 500 more from the heavy addresses: each time the oldest of one holding 20 goes, never the lone one
    for (let i = 0; i < 500; i++)
      book.add(`more-${i}`, challenge(t0 + 5 * 60_000), `10.1.${i % 250}.${Math.floor(i / 250)}`, t0 + 2)
    expect(book.size).toBe(MAX_PENDING_CHALLENGES)
    expect(book.has('lone')).toBe(true)
    expect(book.has('c-0')).toBe(false)
    expect(book.has('more-499')).toBe(true)
  })

  it('keeps every waiting challenge when each address holds one at the bound: a new one answers 429', () => {
    const book = new ChallengeBook({ perAddress: 5, max: 3 })
    const challenge = { address: '0x0', nonce: 'n', message: 'm', expiresAt: t0 + 5 * 60_000 }
    book.add('user', challenge, '198.51.100.1', t0)
    book.add('a-1', challenge, '203.0.113.1', t0)
    book.add('b-1', challenge, '203.0.113.2', t0)
    // a flood from many addresses, one challenge each: no one holds more than the user, nothing is dropped for it
    for (const [id, address] of [
      ['c-1', '203.0.113.3'],
      ['user-2', '198.51.100.1'],
    ])
      expect(() => book.add(id!, challenge, address!, t0 + 1)).toThrow(
        expect.objectContaining({
          status: 429,
          message: expect.stringContaining('most wallet-login challenges waiting for their signature (3,'),
        }),
      )
    expect(book.has('user')).toBe(true)
    expect(book.waiting('198.51.100.1')).toBe(1)
    expect(book.size).toBe(3)
    // an address holding more than one gives its oldest up; the one that made room keeps being counted
    book.delete('b-1')
    book.add('a-2', challenge, '203.0.113.1', t0 + 2)
    book.add('a-3', challenge, '203.0.113.1', t0 + 3)
    expect(book.has('a-1')).toBe(false)
    expect(book.has('user')).toBe(true)
    expect(book.waiting('203.0.113.1')).toBe(2)
    expect(book.delete('a-3')).toBe(true)
    expect(book.waiting('203.0.113.1')).toBe(1)
  })

  it('counts an IPv4 address as it is (mapped into IPv6 too) and an IPv6 address by its /64', () => {
    expect(addressGroup('203.0.113.9')).toBe('203.0.113.9')
    expect(addressGroup('::ffff:203.0.113.9')).toBe('203.0.113.9')
    expect(addressGroup('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64')
    expect(addressGroup('2001:0DB8:0001:0002::ffff')).toBe('2001:db8:1:2::/64')
    expect(addressGroup('2001:db8::1')).toBe('2001:db8:0:0::/64')
    expect(addressGroup('fe80::1%eth0')).toBe('fe80:0:0:0::/64')
    expect(addressGroup('local')).toBe('local')
  })
})
