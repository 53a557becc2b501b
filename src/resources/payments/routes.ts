import { routesUsing } from '../../contract/route.ts'
import type { Services } from '../services.ts'
import { searchPayments } from './model.ts'
import { PaymentSearchQuery, PaymentSearchResponse } from './schema.ts'

const defineRoute =
  routesUsing<
    Services<
      'conversion' | 'currencies' | 'events' | 'ids' | 'offrampAddress' | 'paymentReferences' | 'relayers'
    >
  >()

/** Payment search (`GET /v2/payments`). */
export const paymentRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v2/payments',
    credentials: ['api-key', 'client-id'],
    surface: 'api',
    summary: 'Search payments by transaction, wallet, reference, request, type, currencies and dates',
    statuses: [200],
    query: PaymentSearchQuery,
    responses: { 200: PaymentSearchResponse },
    handler: (ctx, { query }) => ({ status: 200, body: searchPayments(ctx, query) }),
  }),
]
