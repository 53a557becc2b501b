// mounting the resource registers what its worlds take up again when they come back (beside its state)
import './resume.ts'
import { z } from 'zod'
import { isPromise } from '../../contract/maybe-promise.ts'
import { Address } from '../../contract/primitives.ts'
import { routesUsing } from '../../contract/route.ts'
import type { Services } from '../services.ts'
import { createRequestAndSchedule } from './create.ts'
import { ListRequestsQuery, ListRequestsResponse, listRequests } from './list.ts'
import { getRequest, getRequestByReference } from './model.ts'
import { captureOrchestratorFees } from './orchestrator-fees.ts'
import { setRecurrence } from './recurring.ts'
import {
  CreateRequestBody,
  CreateRequestResponse,
  type RequestRecord,
  RequestStatusV1,
  RequestStatusV2,
} from './schema.ts'
import { statusV1, statusV2 } from './status.ts'

const defineRoute =
  routesUsing<
    Services<
      'conversion' | 'currencies' | 'events' | 'ids' | 'offrampAddress' | 'paymentReferences' | 'worlds'
    >
  >()

const RequestIdParams = z.object({ requestId: z.string() })
const ReferenceParams = z.object({ paymentReference: z.string() })

// The 201 of a create carries its JSON text, written here: both values are hex the model made (`0x` + 16 digits,
// `01` + 64, patterns the table's schema holds them to), which JSON writes as they are, so the text is what
// JSON.stringify(body) gives (test/requests/created-text.test.ts compares them) without the serialiser's call.

/** The 201 of POST /v2/request. */
const createdV2 = (record: RequestRecord) => ({
  status: 201,
  body: { paymentReference: record.paymentReference, requestId: record.requestId },
  text: `{"paymentReference":"${record.paymentReference}","requestId":"${record.requestId}"}`,
})

/** The 201 of POST /v1/request: `requestID`, a capital D. */
const createdV1 = (record: RequestRecord) => ({
  status: 201,
  body: { requestID: record.requestId, paymentReference: record.paymentReference },
  text: `{"requestID":"${record.requestId}","paymentReference":"${record.paymentReference}"}`,
})

/** Routes of the request resource: create, list, read status, stop recurrence. */
export const requestRoutes = [
  defineRoute({
    method: 'POST',
    path: '/v2/request',
    credentials: ['api-key', 'client-id'],
    surface: 'api',
    summary: 'Create a request',
    statuses: [201],
    body: CreateRequestBody,
    responses: { 201: CreateRequestResponse },
    // the answer at once when the create waited for nothing (nearly always: no orchestrator fees, no recurrence)
    handler(ctx, { body }) {
      const record = createRequestAndSchedule(ctx, body, (created) => captureOrchestratorFees(ctx, created))
      return isPromise(record) ? record.then(createdV2) : createdV2(record)
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/request',
    credentials: ['api-key'],
    surface: 'api',
    summary: 'Create a request (v1: answers requestID with a capital D)',
    statuses: [201],
    body: CreateRequestBody.extend({ payee: Address }),
    handler(ctx, { body }) {
      const record = createRequestAndSchedule(ctx, body)
      return isPromise(record) ? record.then(createdV1) : createdV1(record)
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v2/request',
    credentials: ['api-key', 'client-id'],
    surface: 'api',
    summary: "List the caller's requests paid to a wallet, newest first",
    statuses: [200],
    query: ListRequestsQuery,
    responses: { 200: ListRequestsResponse },
    handler(ctx, { query }) {
      return { status: 200, body: listRequests(ctx, query) }
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v2/request/:requestId',
    credentials: ['api-key', 'client-id'],
    surface: 'api',
    summary: 'Get the status of a request',
    statuses: [200, 404],
    params: RequestIdParams,
    responses: { 200: RequestStatusV2 },
    handler(ctx, { params }) {
      return { status: 200, body: statusV2(ctx, ctx.world, getRequest(ctx, params.requestId)) }
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v2/request/:requestId',
    credentials: ['api-key', 'client-id'],
    surface: 'api',
    summary: 'Stop or resume the recurrence of a request',
    statuses: [200, 404],
    params: RequestIdParams,
    body: z.object({ isRecurrenceStopped: z.boolean() }),
    async handler(ctx, { params, body }) {
      await setRecurrence(ctx, getRequest(ctx, params.requestId), body.isRecurrenceStopped)
      return { status: 200 }
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/request/:paymentReference',
    credentials: ['api-key'],
    surface: 'api',
    summary: 'Get the status of a request by payment reference',
    statuses: [200, 404],
    params: ReferenceParams,
    responses: { 200: RequestStatusV1 },
    handler(ctx, { params }) {
      return { status: 200, body: statusV1(ctx, getRequestByReference(ctx, params.paymentReference)) }
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v1/request/:paymentReference/stop-recurrence',
    credentials: ['api-key'],
    surface: 'api',
    summary: 'Stop the recurrence of a request (v1: by payment reference; a second stop is refused)',
    statuses: [200, 404],
    params: ReferenceParams,
    async handler(ctx, { params }) {
      await setRecurrence(ctx, getRequestByReference(ctx, params.paymentReference), true, { strict: true })
      return { status: 200 }
    },
  }),
]
