// The control API behind the developer tools of the command line (trigger, listen, logs, fixtures, snapshots,
// webhook chaos): each route is what its command calls, so a script or a browser can do the same over HTTP.
import { z } from 'zod'
import { publicBaseUrl } from '../contract/public-url.ts'
import { routesUsing } from '../contract/route.ts'
import { restoreSnapshot, SnapshotNotFoundError, saveSnapshot } from '../snapshots/index.ts'
import { webhookToolRoutes } from '../webhooks/index.ts'
import { createControl } from './control.ts'
import { loadWorldFile } from './fixtures/load.ts'
import { oneUploadAtATime } from './fixtures/uploads.ts'
import { parseWorldFile } from './fixtures/world-file.ts'
import { createSeedApi } from './scenarios/seed-api.ts'
import type { SandboxState } from './services.ts'
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
    statuses: [201, 404, 429, 503, 504],
    body: TriggerBody,
    async handler(ctx, { body, request }) {
      // a shared listener: a trigger funds its payer with the deployer's mints, so it counts in the key's faucet window
      if (ctx.security.exposed) ctx.faucetLimit.count(ctx.tenant!, Date.now(), 'faucet calls and triggers')
      const baseUrl = publicBaseUrl(request)
      const world = await createControl(ctx).world(ctx.tenant!, undefined, baseUrl)
      return { status: 201, body: await runTrigger(ctx, world, body, baseUrl) }
    },
  }),
  ...webhookToolRoutes,
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
        const file = await parseWorldFile(typeof body === 'string' ? body : '', {
          claimed: ctx.tenants.isClaimed(ctx.tenant!),
        })
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
