import { z } from 'zod'

/** Body of `POST /v2/journey`: optionally the request the journey follows. */
export const CreateJourneyBody = z.object({ requestId: z.string().min(1).optional() })

/** `processedAt`: an ISO 8601 UTC time ending in `Z`, as the document requires (`2025-07-23T14:23:00Z`). */
const UtcTimestamp = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?Z$/, {
    message: "processedAt must be a UTC date-time ending with 'Z', such as 2025-07-23T14:23:00Z",
  })
  .refine((v) => !Number.isNaN(Date.parse(v)), { message: 'processedAt is not a valid date-time' })

/** Body of `POST /v2/journey/{queryId}`: one processor's step. */
export const JourneyEventBody = z.object({
  status: z.string().min(1),
  amount: z.string().min(1),
  processedAt: UtcTimestamp,
  currency: z.string().min(1).optional(),
  txReference: z.string().min(1).optional(),
  rawPayload: z.unknown().optional(),
  nextProcessorId: z.string().min(1).optional(),
})
export type JourneyEventBody = z.infer<typeof JourneyEventBody>

/** One reported step, as stored and answered. */
export const JourneyEvent = z.object({
  id: z.string(),
  journeyId: z.string(),
  processorId: z.string(),
  status: z.string(),
  amount: z.string(),
  currency: z.string().optional(),
  txReference: z.string().optional(),
  processedAt: z.string(),
  rawPayload: z.unknown().optional(),
  nextProcessorId: z.string().optional(),
  /** tenant-clock time the step was reported (ties in processedAt keep report order) */
  reportedAt: z.string(),
})
export type JourneyEvent = z.infer<typeof JourneyEvent>

/** A journey (tracking reference) and its steps in report order. */
export const JourneyRecord = z.object({
  id: z.string(),
  requestId: z.string().nullable(),
  createdAt: z.string(),
  events: z.array(JourneyEvent),
})
export type JourneyRecord = z.infer<typeof JourneyRecord>

/** `GET /v2/journey/{journeyId}`: the journey and its timeline, sorted by processing time. */
export const JourneyTimeline = z.object({
  id: z.string(),
  requestId: z.string().nullable(),
  createdAt: z.string(),
  events: z.array(
    JourneyEvent.omit({ journeyId: true, processorId: true, reportedAt: true }).extend({
      stepIndex: z.number().int(),
    }),
  ),
})
