// The control API behind the developer tools of the command line (trigger, listen, logs, fixtures, snapshots,
// webhook chaos): each route is what its command calls, so a script or a browser can do the same over HTTP.
import { z } from 'zod'
import { EVENT_TYPES } from '../contract/events.ts'
import { publicBaseUrl } from '../contract/public-url.ts'
import { routesUsing } from '../contract/route.ts'
import { SandboxError } from '../contract/sandbox-error.ts'
import { ChaosRule, chaosRules, setChaosRules } from '../resources/webhooks/chaos-state.ts'
import { restoreSnapshot, SnapshotNotFoundError, saveSnapshot } from '../snapshots/index.ts'
import { createControl, deliveryView } from './control.ts'
import { sseEvent } from './dashboard/stream.ts'
import { loadWorldFile } from './fixtures/load.ts'
import { oneUploadAtATime } from './fixtures/uploads.ts'
import { parseWorldFile } from './fixtures/world-file.ts'
import type { SandboxState } from './sandbox-state.ts'
import { createSeedApi } from './scenarios/seed-api.ts'
import { runTrigger, TriggerBody, triggerList } from './trigger.ts'

const defineRoute = routesUsing<SandboxState>()

export const toolRoutes = [
  defineRoute({
    method: 'GET',
    path: '/__sandbox/triggers',
    // the same list for everyone, in no world: no key needed (as `stripe trigger --help` needs none)
    credentials: ['public'],
    surface: 'control',
    summary: 'The events POST /__sandbox/trigger can make happen, with what each creates (no key needed)',
    statuses: [200],
    handler: () => ({ status: 200, body: { triggers: triggerList() } }),
  }),
  defineRoute({
    method: 'POST',
    path: '/__sandbox/trigger',
    credentials: ['api-key'],
    surface: 'control',
    summary:
      "Makes an event happen for real in the caller's world (objects created, paid on the chain) and answers them with the events that followed",
    statuses: [201, 404, 503, 504],
    body: TriggerBody,
    async handler(ctx, { body, request }) {
      const baseUrl = publicBaseUrl(request)
      const world = await createControl(ctx).world(ctx.tenant!, undefined, baseUrl)
      return { status: 201, body: await runTrigger(ctx, world, body, baseUrl) }
    },
  }),
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
  defineRoute({
    method: 'POST',
    path: '/__sandbox/fixtures',
    credentials: ['api-key'],
    surface: 'control',
    summary:
      "Loads a world file (JSON or YAML, the file's content as the body; fixtures/world.schema.json) into the caller's world and answers what it created, by section and name",
    statuses: [201, 400, 429, 503],
    rawBody: true,
    handler: (ctx, { body, request }) =>
      oneUploadAtATime(ctx.tenants, ctx.tenant!, async () => {
        const file = await parseWorldFile(typeof body === 'string' ? body : '')
        const baseUrl = publicBaseUrl(request)
        const world = await createControl(ctx).world(ctx.tenant!, undefined, baseUrl)
        const api = await createSeedApi(ctx, world, null, baseUrl)
        return { status: 201, body: { created: await loadWorldFile(api, ctx, world, file) } }
      }),
  }),
  defineRoute({
    method: 'POST',
    path: '/__sandbox/snapshots',
    credentials: ['api-key'],
    surface: 'control',
    summary:
      "Saves the caller's worlds (every table, clock, rules) under a name, with each chain's block; a snapshot of that name is replaced",
    statuses: [201, 400, 503, 507],
    body: z.object({ name: z.string().min(1).max(64) }).strict(),
    handler: async (ctx, { body }) => ({
      status: 201,
      body: await saveSnapshot(ctx, ctx.tenant!, body.name),
    }),
  }),
  defineRoute({
    method: 'GET',
    path: '/__sandbox/snapshots',
    credentials: ['api-key'],
    surface: 'control',
    summary: "The caller's snapshots, oldest first; `damaged` names those whose file cannot be read back",
    statuses: [200],
    handler: (ctx) => {
      const { snapshots, damaged } = ctx.snapshots.list(ctx.tenant!)
      return {
        status: 200,
        body: {
          snapshots: snapshots.sort((a, b) => a.savedAt.localeCompare(b.savedAt)),
          damaged,
        },
      }
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/__sandbox/snapshots/:name/restore',
    credentials: ['api-key'],
    surface: 'control',
    summary:
      "Puts the caller's worlds back as the snapshot holds them (requests, payments, payers, clock, timers); other keys are not touched",
    statuses: [200, 404, 409],
    params: z.object({ name: z.string() }),
    handler: async (ctx, { params }) => ({
      status: 200,
      body: { restored: await restoreSnapshot(ctx, ctx.tenant!, params.name) },
    }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/__sandbox/snapshots/:name',
    credentials: ['api-key'],
    surface: 'control',
    summary: "Deletes one of the caller's snapshots",
    statuses: [200, 404],
    params: z.object({ name: z.string() }),
    handler(ctx, { params }) {
      if (!ctx.snapshots.delete(ctx.tenant!, params.name)) throw new SnapshotNotFoundError(params.name)
      return { status: 200, body: { deleted: params.name } }
    },
  }),
]
