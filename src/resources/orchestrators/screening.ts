// `kyt.screening.completed` for payments of onboarded client IDs (orchestrators/kyt-plans.mdx). No KYT provider
// runs in the sandbox: when a wallet reaches a payment made under a client ID whose link carries a screening plan
// (the orchestrator's, or the platform's choice other than none), the result is the link's access rule
// (`approved`, or `rejected` for a wallet `allowedPayerAddresses` refuses), reported by the plan's primary provider,
// once per payment and wallet, to the orchestrator's webhooks.
import type { CredentialDirectory, EventSink, WorldLookup } from '../../contract/ports.ts'
import { activeLinkOf } from './links.ts'
import { orchestratorState } from './tables.ts'

/** Reports the screening of `wallet` on the payment `token` made under `clientId` (nothing without a plan). */
export async function reportScreening(
  shared: { directory: CredentialDirectory; worlds: WorldLookup; events: EventSink },
  input: { clientId: string | null; token: string; wallet: string; approved: boolean },
): Promise<void> {
  if (!input.clientId) return
  const owner = shared.directory.clientIdToTenant.get(input.clientId)
  const platform = owner ? shared.worlds.get(owner.tenant, owner.scenario) : undefined
  const link = platform ? activeLinkOf(platform, input.clientId) : undefined
  if (!link || !platform) return
  const orchestrator = shared.worlds.get(link.orchestratorKey, platform.scenario)
  if (!orchestrator) return
  const record = orchestratorState(orchestrator).links.get(input.clientId)
  const primary = record?.kyt?.providers[0]
  const provider =
    primary?.provider ?? (record?.platformKyt && record.platformKyt !== 'none' ? record.platformKyt : null)
  if (!provider) return
  const wallet = input.wallet.toLowerCase()
  const key = `${input.token}:${wallet}`
  const done = orchestratorState(orchestrator).screenings
  if (done.get(key)) return
  await done.insert({ key, status: input.approved ? 'approved' : 'rejected' })
  shared.events.emit(orchestrator, 'kyt.screening.completed', {
    paymentToken: input.token,
    walletAddress: wallet,
    eoaAddress: wallet,
    smartAccountAddress: null,
    status: input.approved ? 'approved' : 'rejected',
    provider,
    policyId: primary?.policyId ?? null,
    timestamp: orchestrator.clock.now().toISOString(),
  })
}

/** Whether the client ID's active link carries the orchestrator's own screening plan (it cannot be overridden). */
export function hasOrchestratorPlan(
  shared: { directory: CredentialDirectory; worlds: WorldLookup },
  clientId: string,
): boolean {
  const owner = shared.directory.clientIdToTenant.get(clientId)
  const platform = owner ? shared.worlds.get(owner.tenant, owner.scenario) : undefined
  const link = platform ? activeLinkOf(platform, clientId) : undefined
  if (!link || !platform) return false
  const orchestrator = shared.worlds.get(link.orchestratorKey, platform.scenario)
  return !!orchestratorState(orchestrator).links.get(clientId)?.kyt
}
