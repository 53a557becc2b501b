// What --state-dir observes beside the worlds' states: the keys' scenario choices and webhooks (written whole when
// they changed: each registry says so), the keys whose delivery records were forgotten, the delivery records a bound
// dropped from memory (their rows deleted) and the directory's Maps (each set and delete).
import type { SandboxState } from '../control/services.ts'
import { observeMap } from './revival.ts'

/** Calls `on`'s handlers on each change of the shared state --state-dir writes. */
export function observeShared(
  shared: SandboxState,
  on: {
    selections: () => void
    webhooks: () => void
    deliveriesForgotten: (tenant: string) => void
    /** a shared row set, or deleted (`value` undefined) */
    sharedRow: (kind: string, key: string, value: unknown) => void
  },
): void {
  shared.scenarios.onSelect(() => on.selections())
  shared.webhooks.registry.onChange(() => on.webhooks())
  shared.webhooks.onForget((tenant) => on.deliveriesForgotten(tenant))
  // a record dropped from memory (its key's bound, the records' byte budget) has its row deleted in the next batch
  shared.webhooks.onDrop((record) =>
    on.sharedRow('delivery', `${record.tenant}\u0000${record.id}`, undefined),
  )
  const directory = shared.directory
  for (const [kind, map] of [
    ['directory.clientIds', directory.clientIdToTenant],
    ['directory.sessions', directory.sessionToTenant],
    ['directory.pageTokens', directory.pageTokenToPayer],
    ['directory.onboardingTokens', directory.onboardingTokenToWorld],
    ['directory.securePaymentTokens', directory.securePaymentTokenToWorld],
  ] as const)
    observeMap(map as Map<unknown, unknown>, (key, value) => on.sharedRow(kind, key, value))
}
