// The onboarding page finds its intent by token: the directory names the world, an index of its intents table the
// intent; no other world and no intent is read.
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { World } from '../../contract/world.ts'
import { Table } from '../../store/table.ts'
import { createWorld } from '../../store/world.ts'
import { findIntent } from './links.ts'
import { orchestratorState } from './state.ts'

const log = () => {}
const worlds: World[] = []
afterEach(() => {
  vi.restoreAllMocks()
  for (const world of worlds.splice(0)) world.clock.dispose()
})

async function orchestratorWith(tenant: string, intents: number): Promise<World> {
  const world = createWorld(tenant, 'default', log)
  worlds.push(world)
  for (let i = 0; i < intents; i++)
    await orchestratorState(world).intents.insert({
      id: `${tenant}-${i}`,
      token: `${tenant}-token-${i}`,
      clientIdName: 'Shop',
      domains: [],
      externalId: null,
      kyt: null,
      used: false,
      createdAt: '2026-01-01T00:00:00.000Z',
      expiresAt: '2026-01-03T00:00:00.000Z',
      clientId: null,
    })
  return world
}

describe('findIntent', () => {
  it("finds an onboarding token's intent in whichever world holds it, without reading every intent", async () => {
    const a = await orchestratorWith('orc_a', 300)
    const b = await orchestratorWith('orc_b', 300)
    const onboardingTokenToWorld = new Map<string, { tenant: string; scenario: string }>()
    for (const world of [a, b])
      for (const intent of orchestratorState(world).intents.all())
        onboardingTokenToWorld.set(intent.token, { tenant: world.tenant, scenario: world.scenario })
    const all = vi.fn(() => [a, b].values())
    const ctx = {
      directory: { onboardingTokenToWorld },
      worlds: { all, get: (tenant: string) => (tenant === 'orc_a' ? a : b) },
    } as unknown as Parameters<typeof findIntent>[0]
    expect(findIntent(ctx, 'orc_a-token-0')?.intent.id).toBe('orc_a-0') // builds the index
    const reads = vi.spyOn(Table.prototype, 'all')
    const found = findIntent(ctx, 'orc_b-token-299')
    expect(found?.world).toBe(b)
    expect(found?.intent.id).toBe('orc_b-299')
    expect(findIntent(ctx, 'no-such-token')).toBeUndefined()
    expect(reads).not.toHaveBeenCalled()
    // a stranger's guess reads no world (with --state-dir, reading every world brings every one back)
    expect(all).not.toHaveBeenCalled()
    // an intent added later is found too (the index follows the table)
    await orchestratorState(a).intents.insert({
      ...orchestratorState(a).intents.get('orc_a-0')!,
      id: 'orc_a-late',
      token: 'late-token',
    })
    onboardingTokenToWorld.set('late-token', { tenant: 'orc_a', scenario: 'default' })
    expect(findIntent(ctx, 'late-token')?.intent.id).toBe('orc_a-late')
  })
})
