// Journeys: a tracking reference that processors (exchanges, bridges, banks) report steps against.
// Differences from the real service: a journey lives in the world of the key that created it; processors report
// with their own keys and find it by journeyId or by a txReference already reported, across tenants (as the
// service's global ids allow). A processor's id is derived from its key. Linking a request checks that it exists.
import { createHash } from 'node:crypto'
import type { World } from '../../contract/world.ts'
import { getRequest } from '../requests/index.ts'
import type { Services, Uses } from '../services.ts'
import { JourneyNotFoundError } from './errors.ts'
import type { JourneyEvent, JourneyEventBody, JourneyRecord } from './schema.ts'
import { journeyState } from './tables.ts'

type Ctx = Uses<'currencies' | 'ids' | 'offrampAddress' | 'paymentReferences' | 'worlds'>
type Shared = Services<'currencies' | 'ids' | 'offrampAddress' | 'paymentReferences' | 'worlds'>

const crockford = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/** A processor's stable id: 26 Crockford characters (ULID-shaped) from a hash of its key. */
export function processorIdOf(tenant: string): string {
  const digest = createHash('sha256').update(`journey-processor:${tenant}`).digest()
  let out = ''
  for (let i = 0; i < 26; i++) out += crockford[digest[i]! % 32]
  return out
}

/** `POST /v2/journey`: a new journey, optionally linked to one of the caller's requests. */
export async function createJourney(ctx: Ctx, requestId: string | undefined): Promise<JourneyRecord> {
  const { world } = ctx
  const linked = requestId === undefined ? null : getRequest(ctx, requestId).requestId
  const now = world.clock.now()
  return journeyState(world).journeys.insert({
    id: ctx.ids.ulid(now.getTime()),
    requestId: linked,
    createdAt: now.toISOString(),
    events: [],
  })
}

/** The journey a journeyId or a reported txReference names, in whichever world holds it. */
export function findJourney(
  shared: Shared,
  queryId: string,
): { world: World; journey: JourneyRecord } | undefined {
  for (const world of shared.worlds.all()) {
    const journey =
      journeyState(world).journeys.get(queryId) ??
      journeyState(world).journeys.get(journeyState(world).journeyTxReferences.get(queryId) ?? '')
    if (journey) return { world, journey }
  }
  return undefined
}

/** `POST /v2/journey/{queryId}`: records one processor's step; answers the stored event. */
export async function reportJourneyEvent(
  ctx: Ctx,
  queryId: string,
  body: JourneyEventBody,
): Promise<JourneyEvent> {
  const found = findJourney(ctx, queryId)
  if (!found) throw new JourneyNotFoundError()
  const { world, journey } = found
  const reportedAt = ctx.world.clock.now()
  const event: JourneyEvent = {
    id: ctx.ids.ulid(reportedAt.getTime()),
    journeyId: journey.id,
    processorId: processorIdOf(ctx.tenant!),
    status: body.status,
    amount: body.amount,
    ...(body.currency !== undefined ? { currency: body.currency } : {}),
    ...(body.txReference !== undefined ? { txReference: body.txReference } : {}),
    processedAt: body.processedAt,
    ...(body.rawPayload !== undefined ? { rawPayload: body.rawPayload } : {}),
    ...(body.nextProcessorId !== undefined ? { nextProcessorId: body.nextProcessorId } : {}),
    reportedAt: reportedAt.toISOString(),
  }
  await journeyState(world).journeys.update(journey.id, (draft) => {
    draft.events.push(event)
  })
  if (event.txReference) journeyState(world).journeyTxReferences.set(event.txReference, journey.id)
  return event
}

/** `GET /v2/journey/{journeyId}`: the journey with its steps sorted by processing time, numbered from 1. */
export function journeyTimeline(shared: Shared, journeyId: string) {
  const found = findJourney(shared, journeyId)
  if (!found || found.journey.id !== journeyId) throw new JourneyNotFoundError()
  const { journey } = found
  const events = journey.events
    .map((event, order) => ({ event, order, at: Date.parse(event.processedAt) }))
    .sort((a, b) => a.at - b.at || a.order - b.order)
    .map(({ event }, i) => {
      const { id, journeyId: _j, processorId: _p, reportedAt: _r, ...step } = event
      return { id, stepIndex: i + 1, ...step }
    })
  return { id: journey.id, requestId: journey.requestId, createdAt: journey.createdAt, events }
}
