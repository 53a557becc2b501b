import { routesUsing } from '../../contract/route.ts'
import type { Services } from '../services.ts'
import { type BatchServiceNames, buildBatchPayout } from './model.ts'
import { BatchPayoutBody, BatchPayoutResponse } from './schema.ts'

const defineRoute = routesUsing<Services<BatchServiceNames>>()

/** Routes of batch payouts: several requests paid in one BatchConversionPayments transaction. */
export const batchPayoutRoutes = [
  defineRoute({
    method: 'POST',
    path: '/v2/payouts/batch',
    credentials: ['api-key', 'client-id'],
    surface: 'api',
    summary: 'Pay multiple requests in one transaction',
    statuses: [201],
    body: BatchPayoutBody,
    responses: { 201: BatchPayoutResponse },
    async handler(ctx, { body }) {
      return { status: 201, body: await buildBatchPayout(ctx, body) }
    },
  }),
]
