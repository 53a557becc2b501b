import { z } from 'zod'
import { defineState, type World } from '../../contract/world.ts'
import { Table } from '../../store/table.ts'
import { BrandingRecord, ClientLinkRecord, FeeConfigRecord, LinkIntentRecord, LinkRecord } from './schema.ts'

const orchestratorsDef = defineState('orchestrators', () => ({
  // in an orchestrator's world (its key is the tenant)
  /** its links by public client ID (unlinked ones kept) */
  links: new Table(LinkRecord, 'clientId'),
  /** its onboarding intents by id */
  intents: new Table(LinkIntentRecord, 'id'),
  /** its fee configs by id */
  feeConfigs: new Table(FeeConfigRecord, 'id'),
  /** its branding rows by id: `orchestrator` for its own row, the public client ID for a per-client row */
  branding: new Table(BrandingRecord.extend({ key: z.string() }), 'key'),
  // in a platform's world (the tenant that owns the client ID)
  /** the one link record a client ID may ever have, by public client ID */
  clientLinks: new Table(ClientLinkRecord, 'clientId'),
  /** screenings reported, by `token:wallet` (each reported once), in the orchestrator's world */
  screenings: new Table(z.object({ key: z.string(), status: z.enum(['approved', 'rejected']) }), 'key'),
  /** ids of the intents whose onboarding form is being completed right now (a lock held across its awaits; a Set,
   * so --state-dir does not keep it) */
  completing: new Set<string>(),
  /** the wallets (lowercase) its onboardings created a platform world for, with when: what
   * --max-onboarded-platforms counts */
  platformWorlds: new Map<string, string>(),
  /** wallets whose platform world an onboarding of this orchestrator is creating right now (reserved against
   * --max-onboarded-platforms; a Set, not kept by --state-dir) */
  creatingPlatforms: new Set<string>(),
}))

/** A world's orchestrator state (an orchestrator's links, intents, fees and branding; a platform's link records). */
export function orchestratorState(world: World) {
  return world.state(orchestratorsDef)
}
