// What the dashboard shows of an orchestrator (its key is the tenant): its linked client IDs with the platform's
// label and bound destination, its link intents, fee configs, branding rows and webhook count.
import { clientIdState } from '../client-ids/index.ts'
import { payeeDestinationState } from '../payee-destinations/index.ts'
import type { Uses } from '../services.ts'
import { orchestratorIdOf } from './links.ts'
import { orchestratorState } from './tables.ts'

/** `GET /__sandbox/orchestrator`: the caller's orchestrator state. */
export function orchestratorOverview(ctx: Uses<'directory' | 'webhooks' | 'worlds'>) {
  const state = orchestratorState(ctx.world)
  const links = state.links.all().map((link) => {
    const owner = ctx.directory.clientIdToTenant.get(link.clientId)
    const platform = owner ? ctx.worlds.get(owner.tenant, owner.scenario) : undefined
    const record = owner && platform ? clientIdState(platform).clientIds.get(owner.id) : undefined
    const destination = platform
      ? payeeDestinationState(platform)
          .payeeDestinations.all()
          .findLast((d) => d.active && d.clientId === link.clientId)
      : undefined
    return {
      ...link,
      label: record?.label ?? null,
      clientIdStatus: record?.status ?? null,
      destinationId: destination?.destinationId ?? null,
    }
  })
  return {
    orchestratorId: orchestratorIdOf(ctx.tenant!),
    links,
    intents: state.intents.all().map(({ token: _token, ...intent }) => intent),
    feeConfigs: state.feeConfigs.all(),
    branding: state.branding.all().map(({ key: _key, ...row }) => row),
    webhooks: ctx.webhooks.registry.list(ctx.tenant!).length,
  }
}
