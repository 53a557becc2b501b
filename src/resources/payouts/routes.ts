// mounting the resource registers what its worlds take up again when they come back (beside its state)
import './resume.ts'
import { z } from 'zod'
import { routesUsing } from '../../contract/route.ts'
import type { PayServiceNames } from '../pay/index.ts'
import type { Services } from '../services.ts'
import { activatePayout, getPayout, payoutStatus, updatePayout } from './lifecycle.ts'
import { createOneTimePayout, createRecurringPayout } from './model.ts'
import {
  ActivateBody,
  ActivatedPayoutAnswer,
  PayoutBody,
  PayoutStatusAnswer,
  PayV1Body,
  UpdateBody,
  UpdatedPayoutAnswer,
} from './schema.ts'

const defineRoute = routesUsing<Services<PayServiceNames | 'relayers'>>()

const IdParams = z.object({ id: z.string() })

/** Routes of payouts: create (one-time or recurring), and the recurring payout's activation, status and control. */
export const payoutRoutes = [
  defineRoute({
    method: 'POST',
    path: '/v1/pay',
    credentials: ['api-key'],
    surface: 'api',
    summary: 'Initiate a payment (v1): a request and its calldata in one call, requestID with a capital D',
    statuses: [201],
    body: PayV1Body,
    async handler(ctx, { body }) {
      const { requestId, paymentReference, ...payment } = await createOneTimePayout(ctx, body)
      return { status: 201, body: { requestID: requestId, paymentReference, ...payment } }
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v2/payouts',
    credentials: ['api-key', 'client-id'],
    surface: 'api',
    summary: 'Initiate a payment: one-time (request + calldata) or recurring (permit + approval)',
    statuses: [201],
    body: PayoutBody,
    async handler(ctx, { body }) {
      const created = body.recurrence
        ? await createRecurringPayout(ctx, body)
        : await createOneTimePayout(ctx, body)
      return { status: 201, body: created }
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v2/payouts/recurring/:id',
    credentials: ['api-key', 'client-id'],
    surface: 'api',
    summary: 'Submit the recurring payment permit signature (activates the schedule)',
    statuses: [201, 404],
    params: IdParams,
    body: ActivateBody,
    responses: { 201: ActivatedPayoutAnswer },
    async handler(ctx, { params, body }) {
      return { status: 201, body: await activatePayout(ctx, params.id, body.permitSignature) }
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v2/payouts/recurring/:id',
    credentials: ['api-key', 'client-id'],
    surface: 'api',
    summary: 'Get the status of a recurring payment',
    statuses: [200, 404],
    params: IdParams,
    responses: { 200: PayoutStatusAnswer },
    handler(ctx, { params }) {
      return { status: 200, body: payoutStatus(getPayout(ctx, params.id)) }
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v2/payouts/recurring/:id',
    credentials: ['api-key', 'client-id'],
    surface: 'api',
    summary: 'Cancel or unpause a recurring payment',
    statuses: [200, 404],
    params: IdParams,
    body: UpdateBody,
    responses: { 200: UpdatedPayoutAnswer },
    async handler(ctx, { params, body }) {
      return { status: 200, body: await updatePayout(ctx, params.id, body.action) }
    },
  }),
]
