// Webhook chaos rules of a world (PUT /__sandbox/webhooks/chaos): which event types' deliveries are duplicated,
// dropped, delayed, reordered or failed. Kept in the world like any resource state, so a reset clears them and
// --state-dir keeps them.
import { z } from 'zod'
import { EVENT_TYPES } from '../contract/events.ts'
import { defineState, type World } from '../contract/world.ts'
import { Table } from '../store/table.ts'

export const CHAOS_ACTIONS = ['duplicate', 'drop', 'delay', 'reorder', 'fail'] as const

/** One rule: what happens to the first delivery attempt of the matching events. */
export const ChaosRule = z
  .object({
    /** event types, or ["*"] for all */
    events: z.array(z.enum(['*', ...EVENT_TYPES])).min(1),
    action: z.enum(CHAOS_ACTIONS),
    /** delay: how long before the first attempt; reorder: the longest a delivery is held (default 2000 ms) */
    delayMs: z.number().int().min(0).max(60_000).optional(),
    /** fail: the status recorded for the first attempt (default 500); the retries then go out for real */
    status: z.number().int().min(400).max(599).optional(),
  })
  .strict()
export type ChaosRule = z.infer<typeof ChaosRule>

const ChaosRuleRecord = ChaosRule.extend({ id: z.string() })

const chaosDef = defineState('webhook-chaos', () => ({
  /** the rules in the order they were given (id: their position); the first that matches an event applies */
  rules: new Table(ChaosRuleRecord, 'id'),
}))

/** A world's webhook chaos rules. */
export function chaosState(world: World) {
  return world.state(chaosDef)
}

/** Replaces a world's rules. */
export async function setChaosRules(world: World, rules: ChaosRule[]): Promise<ChaosRule[]> {
  const table = chaosState(world).rules
  for (const old of table.all()) table.delete(old.id)
  for (const [i, rule] of rules.entries()) await table.insert({ id: String(i).padStart(4, '0'), ...rule })
  return chaosRules(world)
}

/** A world's rules, in order. */
export function chaosRules(world: World): ChaosRule[] {
  return chaosState(world)
    .rules.all()
    .sort((a, b) => a.id.localeCompare(b.id))
    .map(({ id: _id, ...rule }) => rule)
}

/** The rule that applies to an event type, if any. */
export function chaosFor(world: World, event: string): ChaosRule | undefined {
  return chaosRules(world).find(
    (r) => r.events.includes('*') || (r.events as readonly string[]).includes(event),
  )
}
