// mounting the resource registers what its worlds take up again when they come back (beside its state)
import './resume.ts'
import { z } from 'zod'
import { BOTH_VERSIONS, routesUsing, versioned } from '../../contract/route.ts'
import type { Services } from '../services.ts'
import { createPaymentDetail, forcePaymentDetailStatus, listPaymentDetails } from './model.ts'
import { CreatePaymentDetailBody, ForcePaymentDetailBody, type PaymentDetailRecord } from './schema.ts'

const defineRoute = routesUsing<Services<'compliance' | 'directory' | 'events' | 'ids'>>()

const PayerParams = z.object({ clientUserId: z.string().min(1) })

const optionalOut = [
  'accountType',
  'sortCode',
  'iban',
  'swiftBic',
  'ribNumber',
  'bsbNumber',
  'ncc',
  'branchCode',
  'bankCode',
  'ifsc',
] as const

/** One item of `paymentDetails` (GET): the documented fields, then the other identifiers given, as stored. */
function detailView(d: PaymentDetailRecord) {
  const view: Record<string, unknown> = {
    id: d.id,
    userId: d.userId,
    clientUserId: d.clientUserId,
    bankName: d.bankName,
    accountName: d.accountName,
    beneficiaryType: d.beneficiaryType,
    ...(d.accountNumber !== null ? { accountNumber: d.accountNumber } : {}),
    ...(d.routingNumber !== null ? { routingNumber: d.routingNumber } : {}),
    currency: d.currency,
    status: d.status,
    rails: d.rails,
    country: d.country,
  }
  for (const field of optionalOut) if (d[field] !== null) view[field] = d[field]
  return view
}

/** Endpoints 3 and 4 under v1 and v2. */
export const paymentDetailRoutes = versioned(BOTH_VERSIONS, (version) => [
  defineRoute({
    method: 'POST',
    path: `/${version}/payer/:clientUserId/payment-details`,
    credentials: ['api-key'],
    surface: 'api',
    summary: 'Create bank payment details for a payer',
    statuses: [201, 404],
    params: PayerParams,
    body: CreatePaymentDetailBody,
    async handler(ctx, { params, body }) {
      const d = await createPaymentDetail(ctx, params.clientUserId, body)
      return {
        status: 201,
        body: {
          payment_detail: {
            id: d.id,
            clientUserId: d.clientUserId,
            bankName: d.bankName,
            accountName: d.accountName,
            currency: d.currency,
            beneficiaryType: d.beneficiaryType,
          },
        },
      }
    },
  }),
  defineRoute({
    method: 'GET',
    path: `/${version}/payer/:clientUserId/payment-details`,
    credentials: ['api-key'],
    surface: 'api',
    summary: "Get a payer's payment details",
    statuses: [200, 404],
    params: PayerParams,
    query: z.object({ paymentDetailsId: z.string().min(1).optional() }),
    handler(ctx, { params, query }) {
      const list = listPaymentDetails(ctx, params.clientUserId, query.paymentDetailsId)
      return { status: 200, body: { paymentDetails: list.map(detailView) } }
    },
  }),
])

/** `POST /__sandbox/payers/{clientUserId}/payment-details/{id}`: forces a status for tests. */
export const paymentDetailControlRoutes = [
  defineRoute({
    method: 'POST',
    path: '/__sandbox/payers/:clientUserId/payment-details/:id',
    credentials: ['api-key'],
    surface: 'control',
    summary: "Forces a payment detail's status (pending, approved, failed) and emits payment_detail.updated",
    statuses: [200, 404],
    params: PayerParams.extend({ id: z.string().min(1) }),
    body: ForcePaymentDetailBody,
    async handler(ctx, { params, body }) {
      const d = await forcePaymentDetailStatus(ctx, params.clientUserId, params.id, body.status)
      return { status: 200, body: detailView(d) }
    },
  }),
]
