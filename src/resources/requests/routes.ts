import { z } from 'zod'
import { Address } from '../../contract/primitives.ts'
import { defineRoute } from '../../contract/route.ts'
import type { RouteContext } from '../../contract/route-context.ts'
import {
  createRequest,
  getRequest,
  getRequestByReference,
  isFullyPaid,
  setRecurrenceStopped,
} from './model.ts'
import { CreateRequestBody, CreateRequestResponse, type RequestRecord, RequestStatusV1 } from './schema.ts'

const RequestIdParams = z.object({ requestId: z.string() })
const ReferenceParams = z.object({ paymentReference: z.string() })

/** The status fields both versions share. */
function statusV1(ctx: RouteContext, record: RequestRecord) {
  const paid = isFullyPaid(ctx, record)
  return {
    hasBeenPaid: paid,
    paymentReference: record.paymentReference,
    requestId: record.requestId,
    isListening: record.isListening,
    txHash: record.payments.at(-1)?.txHash ?? null,
  }
}

/** The v2 status body (the V2 document's optional fields that the sandbox knows). */
function statusV2(ctx: RouteContext, record: RequestRecord) {
  return {
    ...statusV1(ctx, record),
    status: record.payments.length === 0 ? 'pending' : isFullyPaid(ctx, record) ? 'paid' : 'partially_paid',
    isCryptoToFiatAvailable: record.isCryptoToFiatAvailable,
    isRecurrenceStopped: record.isRecurrenceStopped,
    ...(record.recurrence ? { recurrence: record.recurrence } : {}),
    ...(record.originalRequestId ? { originalRequestId: record.originalRequestId } : {}),
    ...(record.originalRequestPaymentReference
      ? { originalRequestPaymentReference: record.originalRequestPaymentReference }
      : {}),
    customerInfo: record.customerInfo,
    reference: record.reference,
    payments: record.payments.map((p) => ({
      amount: p.amount,
      txHash: p.txHash,
      timestamp: p.timestamp,
      fee: p.feeAmount,
      feeAddress: p.feeAddress,
      network: p.network,
    })),
  }
}

/** Routes of the request resource: create, read status, stop recurrence. */
export const requestRoutes = [
  defineRoute({
    method: 'POST',
    path: '/v2/request',
    auth: 'api',
    summary: 'Create a request',
    body: CreateRequestBody,
    responses: { 201: CreateRequestResponse },
    async handler(ctx, { body }) {
      const record = await createRequest(ctx, body)
      return { status: 201, body: { paymentReference: record.paymentReference, requestId: record.requestId } }
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/request',
    auth: 'api',
    summary: 'Create a request (v1: answers requestID with a capital D)',
    body: CreateRequestBody.extend({ payee: Address }),
    async handler(ctx, { body }) {
      const record = await createRequest(ctx, body)
      return { status: 201, body: { requestID: record.requestId, paymentReference: record.paymentReference } }
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v2/request/:requestId',
    auth: 'api',
    summary: 'Get the status of a request',
    params: RequestIdParams,
    handler(ctx, { params }) {
      return { status: 200, body: statusV2(ctx, getRequest(ctx, params.requestId)) }
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v2/request/:requestId',
    auth: 'api',
    summary: 'Stop or resume the recurrence of a request',
    params: RequestIdParams,
    body: z.object({ isRecurrenceStopped: z.boolean() }),
    async handler(ctx, { params, body }) {
      await setRecurrenceStopped(ctx, params.requestId, body.isRecurrenceStopped)
      return { status: 200 }
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/request/:paymentReference',
    auth: 'api',
    summary: 'Get the status of a request by payment reference',
    params: ReferenceParams,
    responses: { 200: RequestStatusV1 },
    handler(ctx, { params }) {
      return { status: 200, body: statusV1(ctx, getRequestByReference(ctx, params.paymentReference)) }
    },
  }),
]
