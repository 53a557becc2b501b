import { z } from 'zod'
import { routesUsing } from '../contract/route.ts'
import {
  createWebhook,
  deleteWebhook,
  listedWebhooks,
  parseTestEventType,
  parseWebhookUrl,
  sendTestWebhook,
  toggleWebhook,
  type WebhookServices,
} from './model.ts'
import { CreateWebhookResponse, TestWebhookAnswer, WebhookRecord } from './schema.ts'

const defineRoute = routesUsing<WebhookServices>()

const IdParams = z.object({ webhookId: z.string() })

/** Who may manage webhooks on each path: /v1/webhook is also the Auth API's, with `x-client-id` (+ Origin). */
function credentialsOf(base: string): ('api-key' | 'portal-session' | 'client-id')[] {
  if (base === '/v2/request-tech') return ['portal-session']
  if (base === '/v1/webhook') return ['api-key', 'portal-session', 'client-id']
  return ['api-key', 'portal-session']
}

/**
 * Webhook management (FULL's /v1|v2/webhook and its /v2/request-tech alias, and the Auth API's /v1/webhook with
 * x-client-id): register, list, toggle, delete, send a test event. All three paths work over one registry;
 * /request-tech takes the portal cookie only.
 */
export const webhookRoutes = (['/v1/webhook', '/v2/webhook', '/v2/request-tech'] as const).flatMap((base) => [
  defineRoute({
    method: 'POST',
    path: `${base}`,
    credentials: credentialsOf(base),
    surface: 'api',
    summary: 'Register a webhook URL; answers its id and signing secret',
    statuses: [201],
    body: z.unknown(),
    responses: { 201: CreateWebhookResponse },
    async handler(ctx, { body }) {
      const record = await createWebhook(ctx, parseWebhookUrl(body))
      return { status: 201, body: { id: record.id, secret: record.secret } }
    },
  }),
  defineRoute({
    method: 'GET',
    path: `${base}`,
    credentials: credentialsOf(base),
    surface: 'api',
    summary: "The key's webhooks",
    statuses: [200],
    responses: { 200: z.array(WebhookRecord.partial({ secret: true })) },
    handler: (ctx) => ({ status: 200, body: listedWebhooks(ctx) }),
  }),
  defineRoute({
    method: 'POST',
    path: `${base}/test`,
    credentials: credentialsOf(base),
    surface: 'api',
    summary: 'Send a test event to every active webhook of the key',
    statuses: [201, 404],
    body: z.unknown(),
    responses: { 201: TestWebhookAnswer },
    handler(ctx, { body }) {
      const deliveries = sendTestWebhook(ctx, parseTestEventType(body))
      return { status: 201, body: { deliveryIds: deliveries.map((d) => d.id) } }
    },
  }),
  defineRoute({
    method: 'PUT',
    path: `${base}/:webhookId`,
    credentials: credentialsOf(base),
    surface: 'api',
    summary: 'Enable or disable a webhook',
    statuses: [200, 404],
    params: IdParams,
    handler(ctx, { params }) {
      toggleWebhook(ctx, params.webhookId)
      return { status: 200 }
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: `${base}/:webhookId`,
    credentials: credentialsOf(base),
    surface: 'api',
    summary: 'Delete a webhook',
    statuses: [200, 404],
    params: IdParams,
    handler(ctx, { params }) {
      deleteWebhook(ctx, params.webhookId)
      return { status: 200 }
    },
  }),
])
