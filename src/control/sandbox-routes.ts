import { z } from 'zod'
import { parseDateOrTimestamp } from '../contract/primitives.ts'
import { defineRoute } from '../contract/route.ts'
import type { DeliveryRecord } from '../events/webhook-delivery.ts'
import { publicBaseUrl } from '../resources/payers/links.ts'
import { createControl } from './control.ts'
import { FaucetBody } from './faucet.ts'

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

/** A delivery as the control API shows it (its body parsed back for reading). */
function deliveryView(record: DeliveryRecord) {
  const { tenant: _tenant, body, ...rest } = record
  return { ...rest, payload: JSON.parse(body) as unknown }
}

/** The control API that needs a key: scenarios, reset, faucet, journal, webhook deliveries. */
export const sandboxRoutes = [
  defineRoute({
    method: 'POST',
    path: '/__sandbox/reset',
    auth: 'api',
    summary:
      "Drops the caller's worlds (every scenario of the key) and journal; webhooks and scenario choice stay",
    statuses: [200],
    handler(ctx) {
      createControl(ctx.shared).reset(ctx.tenant!)
      return { status: 200, body: { reset: true, scenario: ctx.shared.scenarios.selected(ctx.tenant!) } }
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/__sandbox/scenarios',
    auth: 'api',
    summary: 'Every scenario: name, description, rules, the ids it creates (and has seeded for the caller)',
    statuses: [200],
    handler: (ctx) => ({
      status: 200,
      body: {
        default: ctx.shared.scenarios.defaultScenario,
        selected: ctx.shared.scenarios.selected(ctx.tenant!),
        scenarios: ctx.shared.scenarios.list(ctx.tenant),
      },
    }),
  }),
  defineRoute({
    method: 'GET',
    path: '/__sandbox/scenario',
    auth: 'api',
    summary: "The call's scenario (x-sandbox-scenario or the key's choice), seeded, with its ids",
    statuses: [200],
    handler: async (ctx, { request }) => ({
      status: 200,
      body: await ctx.shared.scenarios.state(ctx.world, publicBaseUrl(request)),
    }),
  }),
  defineRoute({
    method: 'PUT',
    path: '/__sandbox/scenario',
    auth: 'api',
    summary: "Switches the caller's key to a scenario (seeded on first use); 400 lists the known names",
    statuses: [200],
    body: z.object({ scenario: z.string().min(1) }).strict(),
    handler: async (ctx, { body, request }) => ({
      status: 200,
      body: await createControl(ctx.shared).useScenario(ctx.tenant!, body.scenario, publicBaseUrl(request)),
    }),
  }),
  defineRoute({
    method: 'POST',
    path: '/__sandbox/faucet',
    auth: 'api',
    summary: 'Mints a token to an address, or sets its ETH balance, on the live chain of the currency',
    statuses: [200, 503],
    body: FaucetBody,
    handler: async (ctx, { body }) => ({ status: 200, body: await createControl(ctx.shared).faucet(body) }),
  }),
  defineRoute({
    method: 'GET',
    path: '/__sandbox/journal',
    auth: 'api',
    summary: "The key's API calls, events and webhook delivery attempts, newest first",
    statuses: [200],
    query: JournalQuery,
    handler(ctx, { query }) {
      const entries = ctx.shared.journal.list(ctx.tenant!, {
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
    path: '/__sandbox/webhooks/deliveries',
    auth: 'api',
    summary: "The key's webhook deliveries with every attempt, newest first",
    statuses: [200],
    handler: (ctx) => ({ status: 200, body: ctx.shared.webhooks.deliveries(ctx.tenant!).map(deliveryView) }),
  }),
  defineRoute({
    method: 'POST',
    path: '/__sandbox/webhooks/:deliveryId/redeliver',
    auth: 'api',
    summary: 'Sends a delivery again (same delivery id and body, retry count from 0)',
    statuses: [202, 404],
    params: z.object({ deliveryId: z.string() }),
    handler: (ctx, { params }) => ({
      status: 202,
      body: deliveryView(createControl(ctx.shared).redeliver(ctx.tenant!, params.deliveryId)),
    }),
  }),
]
