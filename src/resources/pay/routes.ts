import { z } from 'zod'
import { BOTH_VERSIONS, credentialsFor, routesUsing, versioned } from '../../contract/route.ts'
import { getRequest, getRequestByReference } from '../requests/index.ts'
import type { Services } from '../services.ts'
import { buildPayment, type PayServiceNames } from './model.ts'
import { paymentRoutes } from './payment-routes.ts'
import { PayQueryV1, PayQueryV2, PayResponse, payQueryInvalid, RoutesQuery } from './schema.ts'

const defineRoute = routesUsing<Services<PayServiceNames | 'startsOnUse'>>()

/** Routes of the payment calldata endpoints (8 and 9). */
export const payRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v2/request/:requestId/pay',
    credentials: ['api-key', 'client-id'],
    surface: 'api',
    summary: 'Get payment calldata by request id',
    statuses: [200, 404],
    params: z.object({ requestId: z.string() }),
    query: PayQueryV2,
    onInvalid: payQueryInvalid,
    responses: { 200: PayResponse },
    async handler(ctx, { params, query }) {
      const record = getRequest(ctx, params.requestId)
      return { status: 200, body: await buildPayment(ctx, record, query) }
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/request/:paymentReference/pay',
    credentials: ['api-key'],
    surface: 'api',
    summary: 'Get payment calldata by payment reference',
    statuses: [200, 404],
    params: z.object({ paymentReference: z.string() }),
    query: PayQueryV1,
    onInvalid: payQueryInvalid,
    responses: { 200: PayResponse },
    async handler(ctx, { params, query }) {
      const record = getRequestByReference(ctx, params.paymentReference)
      return { status: 200, body: await buildPayment(ctx, record, query) }
    },
  }),
  ...versioned(BOTH_VERSIONS, (version) =>
    defineRoute({
      method: 'GET',
      path: version === 'v2' ? '/v2/request/:requestId/routes' : '/v1/request/:paymentReference/routes',
      credentials: credentialsFor(version, ['api-key', 'client-id']),
      surface: 'api',
      summary: 'The payment routes a wallet can pay a request by',
      statuses: [200, 404],
      params: z.object({ requestId: z.string().optional(), paymentReference: z.string().optional() }),
      query: RoutesQuery,
      onInvalid: payQueryInvalid,
      handler(ctx, { params, query }) {
        const record = params.requestId
          ? getRequest(ctx, params.requestId)
          : getRequestByReference(ctx, params.paymentReference ?? '')
        return { status: 200, body: paymentRoutes(ctx, record, query) }
      },
    }),
  ),
]
