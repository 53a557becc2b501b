// mounting the resource registers what its worlds take up again when they come back (beside its state)
import './resume.ts'
import { z } from 'zod'
import { routesUsing } from '../../contract/route.ts'
import type { Services } from '../services.ts'
import { sendPaymentIntent } from './model.ts'
import { SendIntentBody } from './schema.ts'

const defineRoute = routesUsing<Services<'chains' | 'events' | 'operator'>>()

const IntentParams = z.object({ paymentIntentId: z.string() })

/** Routes of the payment-intent endpoints (10 and 11): send a signed cross-chain intent. */
export const paymentIntentRoutes = [
  defineRoute({
    method: 'POST',
    path: '/v2/request/payment-intents/:paymentIntentId',
    credentials: ['api-key', 'client-id'],
    surface: 'api',
    summary: 'Send a payment intent (200, no body: "Payment intent sent successfully")',
    statuses: [200, 404],
    params: IntentParams,
    body: SendIntentBody,
    async handler(ctx, { params, body }) {
      await sendPaymentIntent(ctx, params.paymentIntentId, body)
      return { status: 200 }
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/request/:paymentIntentId/send',
    credentials: ['api-key'],
    surface: 'api',
    summary: 'Send a payment intent (v1; no success status documented: Nest answers a POST with 201)',
    statuses: [201, 404],
    params: IntentParams,
    body: SendIntentBody,
    async handler(ctx, { params, body }) {
      await sendPaymentIntent(ctx, params.paymentIntentId, body)
      return { status: 201 }
    },
  }),
]
