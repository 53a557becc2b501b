// The Tron full node on the sandbox's port: TronGrid's HTTP API under /tron (TronWeb's `fullHost` is
// `<sandbox>/tron`: it calls `<fullHost>/wallet/<method>` and `<fullHost>/walletsolidity/<method>`). Public like
// TronGrid (its TRON-PRO-API-KEY header is optional there and ignored here); the node is src/chain/tron/node.ts.
import type { TronReply } from '../chain/index.ts'
import { routesUsing } from '../contract/route.ts'
import { SandboxError } from '../contract/sandbox-error.ts'
import type { SandboxState } from './sandbox-state.ts'

/** Where the Tron node is served: TronWeb's `fullHost` is the sandbox's base URL + this. */
export const TRON_PATH = '/tron'

const defineRoute = routesUsing<SandboxState>()

function bodyOf(raw: unknown, query: Record<string, unknown>): Record<string, unknown> {
  if (typeof raw !== 'string' || raw.trim() === '') return { ...query }
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch (error) {
    throw new SandboxError(400, `Malformed JSON body: ${(error as Error).message}`)
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new SandboxError(400, 'The body must be a JSON object')
  return parsed as Record<string, unknown>
}

export const tronRoutes = (['POST', 'GET'] as const).flatMap((method) =>
  (['wallet', 'walletsolidity'] as const).map((api) =>
    defineRoute({
      method,
      path: `${TRON_PATH}/${api}/:method`,
      credentials: ['public'],
      surface: 'control',
      summary: `Tron full node (TronGrid's HTTP API): ${api}/<method> on the tron chain (404 without it)`,
      statuses: [200, 400, 404, 503],
      rawBody: true,
      async handler(ctx, { params, body, request }) {
        const chain = ctx.chains.get('tron')
        if (!chain?.tron)
          throw new SandboxError(404, 'No Tron chain: start the sandbox with --networks …,tron')
        const name = (params as { method: string }).method
        const input = bodyOf(body, request.query as Record<string, unknown>)
        // GET answers as POST does (TronWeb reads with GET when it wants int64 as strings)
        const reply: TronReply = await chain.tron.call(`${api}/${name.toLowerCase()}`, input)
        return { status: reply.status, body: reply.body }
      },
    }),
  ),
)
