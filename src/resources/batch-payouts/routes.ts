import { defineRoute } from '../../contract/route.ts'
import { buildBatchPayout } from './model.ts'
import { BatchPayoutBody, BatchPayoutResponse } from './schema.ts'

/** Routes of batch payouts: several requests paid in one BatchConversionPayments transaction. */
export const batchPayoutRoutes = [
  defineRoute({
    method: 'POST',
    path: '/v2/payouts/batch',
    auth: 'api',
    summary: 'Pay multiple requests in one transaction',
    statuses: [201],
    body: BatchPayoutBody,
    responses: { 201: BatchPayoutResponse },
    async handler(ctx, { body }) {
      return { status: 201, body: await buildBatchPayout(ctx, body) }
    },
  }),
]
