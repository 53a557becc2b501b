import { z } from 'zod'
import { routesUsing } from '../../contract/route.ts'
import { zod3Invalid } from '../../contract/zod3-issues.ts'
import type { Services } from '../services.ts'
import { createJourney, journeyTimeline, reportJourneyEvent } from './model.ts'
import { CreateJourneyBody, JourneyEvent, JourneyEventBody, JourneyTimeline } from './schema.ts'

const defineRoute =
  routesUsing<Services<'currencies' | 'ids' | 'offrampAddress' | 'paymentReferences' | 'worlds'>>()

/** `/v2/journey` (FULL 0.8.1): create a tracking reference, report steps, read the timeline. */
export const journeyRoutes = [
  defineRoute({
    method: 'POST',
    path: '/v2/journey',
    credentials: ['api-key'],
    surface: 'api',
    summary: 'Create a journey (tracking reference), optionally linked to a request',
    statuses: [201, 404],
    body: CreateJourneyBody,
    onInvalid: zod3Invalid,
    responses: { 201: z.object({ journeyId: z.string() }) },
    async handler(ctx, { body }) {
      const journey = await createJourney(ctx, body.requestId)
      return { status: 201, body: { journeyId: journey.id } }
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v2/journey/:queryId',
    credentials: ['api-key'],
    surface: 'api',
    summary: "A processor reports a step of a journey (by journeyId or an earlier step's txReference)",
    statuses: [201, 404],
    params: z.object({ queryId: z.string().min(1) }),
    body: JourneyEventBody,
    onInvalid: zod3Invalid,
    responses: { 201: JourneyEvent.omit({ reportedAt: true }) },
    async handler(ctx, { params, body }) {
      const { reportedAt: _r, ...event } = await reportJourneyEvent(ctx, params.queryId, body)
      return { status: 201, body: event }
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v2/journey/:journeyId',
    // the document lists no credential for the timeline: whoever holds the tracking reference may read it
    credentials: ['public'],
    surface: 'api',
    summary: 'The journey and its steps, sorted by processing time',
    statuses: [200, 404],
    params: z.object({ journeyId: z.string().min(1) }),
    responses: { 200: JourneyTimeline },
    handler: (ctx, { params }) => ({ status: 200, body: journeyTimeline(ctx, params.journeyId) }),
  }),
]
