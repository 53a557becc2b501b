// The control API behind the developer tools of the command line (trigger, listen, logs, fixtures, snapshots,
// webhook chaos): each route is what its command calls, so a script or a browser can do the same over HTTP.
import { publicBaseUrl } from '../contract/public-url.ts'
import { routesUsing } from '../contract/route.ts'
import { createControl } from './control.ts'
import type { SandboxState } from './sandbox-state.ts'
import { runTrigger, TriggerBody, triggerList } from './trigger.ts'

const defineRoute = routesUsing<SandboxState>()

export const toolRoutes = [
  defineRoute({
    method: 'GET',
    path: '/__sandbox/triggers',
    credentials: ['api-key'],
    surface: 'control',
    summary: 'The events POST /__sandbox/trigger can make happen, with what each creates',
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
]
