// A key's session count reads its own tokens: opening one does not walk every key's sessions, and the tokens the
// directory held before (--state-dir) and those ended elsewhere are counted right.
import { randomBytes } from 'node:crypto'
import { afterEach, expect, it } from 'vitest'
import type { World } from '../../contract/world.ts'
import { createWorld } from '../../store/world.ts'
import { MAX_SESSIONS_PER_KEY, openSession } from './model.ts'

const worlds: World[] = []
afterEach(() => {
  for (const world of worlds.splice(0)) world.clock.dispose()
})

/** A call's context over `sessions` for key `me`, in a fresh world (as a sandbox's first call of the key). */
function contextWith(sessions: Map<string, { tenant: string; expiresAt: string }>) {
  const world = createWorld('me', 'default', () => undefined)
  worlds.push(world)
  return {
    directory: { sessionToTenant: sessions },
    ids: { hex: (n: number) => randomBytes(n).toString('hex') },
    worlds: { get: () => world },
    world,
  } as unknown as Parameters<typeof openSession>[0]
}

it("opens a session without walking the other keys' sessions", () => {
  const sessions = new Map<string, { tenant: string; expiresAt: string }>()
  const later = new Date(Date.now() + 3_600_000).toISOString()
  for (let i = 0; i < 20_000; i++)
    sessions.set(`sess_other_${i}`, { tenant: `key-${i % 500}`, expiresAt: later })
  const ctx = contextWith(sessions)
  openSession(ctx, {})
  let walks = 0
  const iterate = sessions[Symbol.iterator].bind(sessions)
  const entries = sessions.entries.bind(sessions)
  sessions[Symbol.iterator] = () => {
    walks++
    return iterate()
  }
  sessions.entries = () => {
    walks++
    return entries()
  }
  for (let i = 0; i < 10; i++) openSession(ctx, {})
  expect(walks).toBe(0)
  expect([...sessions.values()].filter((e) => e.tenant === 'me')).toHaveLength(11)
})

it('counts the tokens the directory held before and frees the place of one ended elsewhere', () => {
  const sessions = new Map<string, { tenant: string; expiresAt: string }>()
  const later = new Date(Date.now() + 3_600_000).toISOString()
  for (let i = 0; i < MAX_SESSIONS_PER_KEY - 1; i++)
    sessions.set(`sess_mine_${i}`, { tenant: 'me', expiresAt: later })
  const ctx = contextWith(sessions)
  openSession(ctx, {})
  expect(() => openSession(ctx, {})).toThrow(/at most 100 live session tokens/)
  // ended by another path (an expired Bearer call, the key's worlds leaving memory): its place is free
  sessions.delete('sess_mine_0')
  expect(openSession(ctx, {}).token).toMatch(/^sess_/)
  expect(() => openSession(ctx, {})).toThrow(/at most 100 live session tokens/)
})
