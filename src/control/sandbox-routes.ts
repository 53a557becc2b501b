import { z } from 'zod'
import { EVENT_TYPES } from '../contract/events.ts'
import { parseDateOrTimestamp } from '../contract/primitives.ts'
import { publicBaseUrl } from '../contract/public-url.ts'
import { routesUsing } from '../contract/route.ts'
import { webhookDeliveryRoutes } from '../webhooks/index.ts'
import { createControl } from './control.ts'
import { FaucetBody } from './faucet.ts'
import type { SandboxState } from './services.ts'

const defineRoute = routesUsing<SandboxState>()

const JournalQuery = z.object({
  type: z
    .string()
    .regex(
      /^(call|event|delivery)(,(call|event|delivery))*$/,
      'type is a comma list of call, event, delivery',
    )
    .optional(),
  event: z.string().optional(),
  path: z.string().optional(),
  scenario: z.string().optional(),
  since: z
    .string()
    .refine(
      (v) => parseDateOrTimestamp(v) !== null,
      'since must be an ISO 8601 timestamp or a YYYY-MM-DD date',
    )
    .optional(),
  limit: z.coerce.number().int().min(1).max(2000).optional(),
})

/** The control API that needs a key: scenarios, reset, faucet, journal, webhook deliveries. */
export const sandboxRoutes = [
  defineRoute({
    method: 'POST',
    path: '/__sandbox/reset',
    credentials: ['api-key'],
    surface: 'control',
    summary:
      "Drops the caller's worlds (every scenario of the key) and journal; webhooks and scenario choice stay",
    statuses: [200],
    handler(ctx) {
      createControl(ctx).reset(ctx.tenant!)
      return { status: 200, body: { reset: true, scenario: ctx.scenarios.selected(ctx.tenant!) } }
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/__sandbox/scenarios',
    credentials: ['api-key'],
    surface: 'control',
    summary: 'Every scenario: name, description, rules, the ids it creates (and has seeded for the caller)',
    statuses: [200],
    handler: (ctx) => ({
      status: 200,
      body: {
        default: ctx.scenarios.defaultScenario,
        selected: ctx.scenarios.selected(ctx.tenant!),
        scenarios: ctx.scenarios.list(ctx.tenant),
      },
    }),
  }),
  defineRoute({
    method: 'GET',
    path: '/__sandbox/scenario',
    credentials: ['api-key'],
    surface: 'control',
    summary: "The call's scenario (x-sandbox-scenario or the key's choice), seeded, with its ids",
    statuses: [200],
    handler: async (ctx, { request }) => ({
      status: 200,
      body: await ctx.scenarios.state(ctx.world, publicBaseUrl(request)),
    }),
  }),
  defineRoute({
    method: 'PUT',
    path: '/__sandbox/scenario',
    credentials: ['api-key'],
    surface: 'control',
    summary: "Switches the caller's key to a scenario (seeded on first use); 400 lists the known names",
    statuses: [200],
    body: z.object({ scenario: z.string().min(1) }).strict(),
    handler: async (ctx, { body, request }) => ({
      status: 200,
      body: await createControl(ctx).useScenario(ctx.tenant!, body.scenario, publicBaseUrl(request)),
    }),
  }),
  defineRoute({
    method: 'POST',
    path: '/__sandbox/faucet',
    credentials: ['api-key'],
    surface: 'control',
    summary:
      'Mints a token to an address, or sets its ETH balance (on a shared listener: only raises it), on the live chain of the currency',
    statuses: [200, 429, 503],
    body: FaucetBody,
    handler: async (ctx, { body }) => {
      // a shared listener: a per-key budget kept outside the key's worlds (a reset or restore leaves it), so one
      // stranger cannot keep the shared deployer busy; and the faucet only adds, so no key empties another's wallet
      if (ctx.security.exposed) ctx.faucetLimit.count(ctx.tenant!)
      return {
        status: 200,
        body: await createControl(ctx).faucet(body, { onlyAdd: ctx.security.exposed }),
      }
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/__sandbox/journal',
    credentials: ['api-key'],
    surface: 'control',
    summary: "The key's API calls, events and webhook delivery attempts, newest first",
    statuses: [200],
    query: JournalQuery,
    handler(ctx, { query }) {
      const entries = ctx.journal.list(ctx.tenant!, {
        ...(query.type ? { types: query.type.split(',') as ('call' | 'event' | 'delivery')[] } : {}),
        ...(query.event ? { event: query.event } : {}),
        ...(query.path ? { path: query.path } : {}),
        ...(query.scenario ? { scenario: query.scenario } : {}),
        ...(query.since ? { since: parseDateOrTimestamp(query.since)! } : {}),
        ...(query.limit ? { limit: query.limit } : {}),
      })
      return { status: 200, body: { entries } }
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/__sandbox/events',
    credentials: ['api-key'],
    surface: 'control',
    summary: "The domain events of the caller's world (its scenario), oldest first; ?type= keeps one type",
    statuses: [200],
    query: z.object({ type: z.enum(EVENT_TYPES).optional() }),
    handler: (ctx, { query }) => ({
      status: 200,
      body: { events: ctx.world.events.filter((e) => query.type === undefined || e.type === query.type) },
    }),
  }),
  defineRoute({
    method: 'POST',
    path: '/__sandbox/events',
    credentials: ['api-key'],
    surface: 'control',
    summary: "Emits a domain event in the caller's world as a resource would: journal and webhooks follow",
    statuses: [201],
    body: z.object({ type: z.enum(EVENT_TYPES), payload: z.record(z.string(), z.unknown()) }).strict(),
    handler: (ctx, { body }) => ({
      status: 201,
      body: ctx.events.emit(ctx.world, body.type, body.payload),
    }),
  }),
  ...webhookDeliveryRoutes,
]
