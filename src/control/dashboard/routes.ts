// The dashboard's routes: the page at `/` (and `/__sandbox/` sends there), its assets, and the read-only
// control endpoints it needs beside the existing control API (seen keys, a world's state, a transaction read
// from the chain, the live stream). Declared at the end of the route table: API calls never test them.
import { timingSafeEqual } from 'node:crypto'
import type { Hash } from 'viem'
import { z } from 'zod'
import { QueryInteger } from '../../contract/primitives.ts'
import { publicBaseUrl } from '../../contract/public-url.ts'
import { routesUsing } from '../../contract/route.ts'
import { NotFoundError } from '../../contract/sandbox-error.ts'
import type { SecuritySettings } from '../../contract/security.ts'
import { createControl } from '../control.ts'
import type { SandboxState } from '../services.ts'
import { DASHBOARD_PAGE, dashboardAsset } from './assets.ts'
import { journalStream } from './stream.ts'
import { readTransaction } from './transaction.ts'
import { dashboardState, seenKeys } from './world-read.ts'

const defineRoute = routesUsing<SandboxState>()

/** Whether a caller may see every key: the admin (--admin-key), or anyone on a loopback listener outside strict mode. */
function keysListed(security: SecuritySettings, strict: boolean, given: string | undefined): boolean {
  const admin = security.adminKey
  if (admin) {
    if (given === undefined) return false
    const a = Buffer.from(admin)
    const b = Buffer.from(given)
    return a.length === b.length && timingSafeEqual(a, b)
  }
  return !strict && !security.exposed
}
const noStore = { 'cache-control': 'no-cache' }

/** The dashboard page, its files and its read-only control endpoints. */
export const dashboardRoutes = [
  defineRoute({
    method: 'GET',
    path: '/',
    credentials: ['public'],
    surface: 'control',
    summary: 'The dashboard (one API key at a time; live)',
    statuses: [200],
    handler: () => ({
      status: 200,
      body: DASHBOARD_PAGE,
      contentType: 'text/html; charset=utf-8',
      headers: noStore,
    }),
  }),
  defineRoute({
    method: 'GET',
    path: '/__sandbox',
    credentials: ['public'],
    surface: 'control',
    summary: 'Redirects to the dashboard',
    statuses: [302],
    // relative, so it lands on the page wherever the sandbox is mounted (a proxy's prefix, an Express mount path)
    handler: (_ctx, { request }) => ({
      status: 302,
      headers: { location: request.path.endsWith('/') ? '../' : './' },
    }),
  }),
  defineRoute({
    method: 'GET',
    path: '/__sandbox/dashboard/:file',
    credentials: ['public'],
    surface: 'control',
    summary: "The dashboard's script, style sheet and icon",
    statuses: [200, 404],
    params: z.object({ file: z.string() }),
    handler(_ctx, { params }) {
      const asset = dashboardAsset(params.file!)
      if (!asset) throw new NotFoundError(`No dashboard file ${params.file}`)
      return { status: 200, body: asset.text, contentType: asset.contentType, headers: noStore }
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/__sandbox/keys',
    credentials: ['public'],
    surface: 'control',
    summary:
      'The API keys the sandbox has seen: with --admin-key, to callers sending it as x-sandbox-admin-key; without, only on a loopback listener outside strict mode (else none: the dashboard asks for a key)',
    statuses: [200],
    handler(ctx, { request }) {
      const listed = keysListed(ctx.security, ctx.strictKeys, request.headers['x-sandbox-admin-key'])
      return {
        status: 200,
        body: {
          strict: ctx.strictKeys,
          listed,
          // an --admin-key exists: the page offers a field for it
          admin: Boolean(ctx.security.adminKey),
          keys: listed ? seenKeys(ctx) : [],
        },
      }
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/__sandbox/state',
    credentials: ['api-key'],
    surface: 'control',
    summary:
      "The caller's world as the dashboard shows it: requests and payments (a page of them: limit, default 200, and offset), payouts, payers, client IDs, webhooks",
    statuses: [200, 400],
    query: z.object({
      limit: QueryInteger('limit', 1, 1000).optional(),
      offset: QueryInteger('offset', 0, 100_000_000).optional(),
    }),
    async handler(ctx, { request, query }) {
      const world = await createControl(ctx).world(ctx.tenant!, undefined, publicBaseUrl(request))
      const page = { limit: Number(query.limit ?? 200), offset: Number(query.offset ?? 0) }
      return { status: 200, body: dashboardState(ctx, world, page) }
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/__sandbox/transactions/:hash',
    credentials: ['api-key'],
    surface: 'control',
    summary:
      'A transaction read from the live chain: from, to, value, the call, decoded Request Network events',
    statuses: [200, 404],
    params: z.object({ hash: z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'hash is 0x and 64 hex digits') }),
    query: z.object({ network: z.string().optional() }),
    async handler(ctx, { params, query }) {
      if (query.network && !ctx.chains.has(query.network))
        throw new NotFoundError(`No live chain for network ${query.network}`)
      const world = await createControl(ctx).world(ctx.tenant!)
      return {
        status: 200,
        body: await readTransaction(ctx, world, params.hash as Hash, query.network),
      }
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/__sandbox/stream',
    credentials: ['api-key'],
    surface: 'control',
    summary:
      "The caller's journal as server-sent events (API calls, events, deliveries) as they happen; a key holds at most --max-streams open (429 past it)",
    statuses: [200, 429],
    handler: (ctx) => ({
      status: 200,
      body: '',
      contentType: 'text/event-stream; charset=utf-8',
      headers: { 'cache-control': 'no-cache', 'x-accel-buffering': 'no' },
      stream: ctx.streams.bounded(ctx.tenant!, 'stream', journalStream(ctx.events, ctx.tenant!)),
    }),
  }),
]
