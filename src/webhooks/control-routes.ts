// The webhook part of the control API (/__sandbox/webhooks/*): register with a pinned secret, deliveries and
// redelivery, the listen clients' stream and their answers, chaos rules. The control plane mounts these routes and
// gives them its context (`WebhookControlServices`).
import { z } from 'zod'
import { EVENT_TYPES } from '../contract/events.ts'
import type { ResponseStream } from '../contract/neutral.ts'
import { routesUsing } from '../contract/route.ts'
import { SandboxError } from '../contract/sandbox-error.ts'
import { sseEvent } from '../contract/sse.ts'
import type { World } from '../contract/world.ts'
import { ChaosRule, chaosRules, setChaosRules } from './chaos-rules.ts'
import { deliveryView, redeliver, registerWebhook } from './control.ts'
import type { WebhookDelivery } from './delivery.ts'

/** What the webhook control routes use of the control plane's context. */
export interface WebhookControlServices {
  webhooks: WebhookDelivery
  /** the key's selected world (seeded on first use) */
  scenarios: { world(tenant: string): Promise<World> }
  /** the per-key bound on long-lived streams (--max-streams): listen clients count as `listen` */
  streams: { bounded(tenant: string, kind: 'listen', stream: ResponseStream): ResponseStream }
}

const defineRoute = routesUsing<WebhookControlServices>()

/** Register, list and redeliver: the webhook routes of the control API's keyed part. */
export const webhookDeliveryRoutes = [
  defineRoute({
    method: 'POST',
    path: '/__sandbox/webhooks',
    credentials: ['api-key'],
    surface: 'control',
    summary: 'Registers a webhook URL for the caller, optionally with a pinned signing secret (64 hex)',
    statuses: [201],
    body: z
      .object({
        url: z.url({ protocol: /^https?$/ }),
        secret: z
          .string()
          .regex(/^[0-9a-f]{64}$/, 'secret is 64 lower-case hex characters')
          .optional(),
      })
      .strict(),
    handler: async (ctx, { body }) => {
      const now = (await ctx.scenarios.world(ctx.tenant!)).clock.now()
      return {
        status: 201,
        body: await registerWebhook(ctx.webhooks, ctx.tenant!, body.url, now, body.secret),
      }
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/__sandbox/webhooks/deliveries',
    credentials: ['api-key'],
    surface: 'control',
    summary: "The key's webhook deliveries with every attempt, newest first",
    statuses: [200],
    handler: (ctx) => ({ status: 200, body: ctx.webhooks.deliveries(ctx.tenant!).map(deliveryView) }),
  }),
  defineRoute({
    method: 'POST',
    path: '/__sandbox/webhooks/:deliveryId/redeliver',
    credentials: ['api-key'],
    surface: 'control',
    summary: 'Sends a delivery again (same delivery id and body, retry count from 0)',
    statuses: [202, 404],
    params: z.object({ deliveryId: z.string() }),
    handler: (ctx, { params }) => ({
      status: 202,
      body: deliveryView(redeliver(ctx.webhooks, ctx.tenant!, params.deliveryId)),
    }),
  }),
]

/** Listen clients, chaos rules and one delivery: the webhook routes behind the command line's tools. */
export const webhookToolRoutes = [
  defineRoute({
    method: 'GET',
    path: '/__sandbox/webhooks/listen',
    credentials: ['api-key'],
    surface: 'control',
    summary:
      "A listen client's stream (server-sent events): each delivery attempt of the caller's events (of ?events=a,b), which the client posts to its app and answers with POST /__sandbox/webhooks/listen/answers/{attemptId}; a key connects at most --max-streams (429 past it)",
    statuses: [200, 429],
    query: z.object({
      events: z
        .string()
        .refine(
          (v) => v.split(',').every((e) => (EVENT_TYPES as readonly string[]).includes(e.trim())),
          `events is a comma list of ${EVENT_TYPES.join(', ')}`,
        )
        .optional(),
    }),
    handler(ctx, { query }) {
      // each listen client is a delivery target (every event goes to each): bounded per key with the streams
      return {
        status: 200,
        body: '',
        contentType: 'text/event-stream; charset=utf-8',
        headers: { 'cache-control': 'no-cache', 'x-accel-buffering': 'no' },
        stream: ctx.streams.bounded(ctx.tenant!, 'listen', {
          open(write) {
            const events = query.events ? query.events.split(',').map((e) => e.trim()) : null
            const listener = ctx.webhooks.listen(ctx.tenant!, events, (attempt) =>
              write(sseEvent('delivery', attempt, attempt.attemptId)),
            )
            write(`retry: 1000\n${sseEvent('ready', { listenerId: listener.id, events })}`)
            const heartbeat = setInterval(() => write(': ping\n\n'), 15_000)
            heartbeat.unref()
            return () => {
              listener.stop()
              clearInterval(heartbeat)
            }
          },
        }),
      }
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/__sandbox/webhooks/listen/answers/:attemptId',
    credentials: ['api-key'],
    surface: 'control',
    summary:
      "A listen client reports its app's answer to a delivery attempt (status, headers, the start of the body), recorded as the attempt's",
    statuses: [200, 404],
    params: z.object({ attemptId: z.string() }),
    body: z
      .object({
        status: z.number().int().min(100).max(599).nullable(),
        headers: z.record(z.string(), z.string()).optional(),
        body: z.string().max(65_536).optional(),
        error: z.string().max(1000).optional(),
      })
      .strict(),
    handler(ctx, { params, body }) {
      const answer = {
        status: body.status,
        ...(body.headers ? { headers: body.headers } : {}),
        ...(body.body !== undefined ? { body: body.body } : {}),
        ...(body.error ? { error: body.error } : {}),
      }
      if (!ctx.webhooks.answer(ctx.tenant!, params.attemptId, answer))
        throw new SandboxError(
          404,
          'No delivery attempt waits under this id (answered, timed out, or another key)',
        )
      return { status: 200, body: { recorded: true } }
    },
  }),
  defineRoute({
    method: 'PUT',
    path: '/__sandbox/webhooks/chaos',
    credentials: ['api-key'],
    surface: 'control',
    summary:
      "Sets the webhook chaos rules of the caller's world (its scenario): deliveries of the listed events are duplicated, dropped, delayed, reordered or failed; [] clears them",
    statuses: [200],
    body: z.object({ rules: z.array(ChaosRule).max(50) }).strict(),
    handler: async (ctx, { body }) => ({
      status: 200,
      body: { rules: await setChaosRules(ctx.world, body.rules) },
    }),
  }),
  defineRoute({
    method: 'GET',
    path: '/__sandbox/webhooks/chaos',
    credentials: ['api-key'],
    surface: 'control',
    summary: "The webhook chaos rules of the caller's world",
    statuses: [200],
    handler: (ctx) => ({ status: 200, body: { rules: chaosRules(ctx.world) } }),
  }),
  defineRoute({
    method: 'GET',
    path: '/__sandbox/webhooks/deliveries/:deliveryId',
    credentials: ['api-key'],
    surface: 'control',
    summary: "One of the caller's deliveries with every attempt and the receiver's answers",
    statuses: [200, 404],
    params: z.object({ deliveryId: z.string() }),
    handler(ctx, { params }) {
      const record = ctx.webhooks.deliveries(ctx.tenant!).find((d) => d.id === params.deliveryId)
      if (!record) throw new SandboxError(404, 'Delivery not found')
      return { status: 200, body: deliveryView(record) }
    },
  }),
]
