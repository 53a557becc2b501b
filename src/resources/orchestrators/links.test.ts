// The onboarding page finds its intent by token: the directory names the world, an index of its intents table the
// intent; no other world and no intent is read.
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { World } from '../../contract/world.ts'
import { Table } from '../../store/table.ts'
import { createWorld } from '../../store/world.ts'
import { completeOnboarding, findIntent } from './links.ts'
import { OnboardingLedger } from './onboarding-limits.ts'
import { orchestratorState } from './tables.ts'

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

describe('completeOnboarding', () => {
  it("holds an intent's claim in its own world: another sandbox's world with the same tenant and intent id is not refused", async () => {
    const mine = await orchestratorWith('orc_same', 1)
    const other = await orchestratorWith('orc_same', 1)
    const intent = orchestratorState(mine).intents.get('orc_same-0')!
    const shared = {
      currencies: { byId: () => ({ type: 'ERC20', address: '0x0000000000000000000000000000000000000001' }) },
      onboarding: new OnboardingLedger(),
    } as unknown as Parameters<typeof completeOnboarding>[0]
    const input = {
      walletAddress: '0x00000000000000000000000000000000000000aa',
      currency: 'USDC-sepolia',
      kyt: 'none',
    } as const
    // a form of `mine` being completed right now
    orchestratorState(mine).completing.add(intent.id)
    await expect(completeOnboarding(shared, { world: mine, intent }, input)).rejects.toThrow(
      'This onboarding link has already been used',
    )
    // the same tenant and intent id in another world (another sandbox in this process) goes on to complete (and
    // fails further on, on the services this test leaves out), and leaves no claim behind
    const error = await completeOnboarding(shared, { world: other, intent }, input).catch((e: Error) => e)
    expect(String(error)).not.toContain('already been used')
    expect(orchestratorState(other).completing.size).toBe(0)
  })
})
