// The Tron full node on the sandbox's port: TronGrid's HTTP API under /tron (TronWeb's `fullHost` is
// `<sandbox>/tron`: it calls `<fullHost>/wallet/<method>` and `<fullHost>/walletsolidity/<method>`). Public like
// TronGrid (its TRON-PRO-API-KEY header is optional there and ignored here); the node is src/tron/node/node.ts.
// What it does not serve and a body that is not a JSON object answer as TronGrid does, with an `Error` body.
import { routesUsing } from '../contract/route.ts'
import { SandboxError } from '../contract/sandbox-error.ts'
import { malformedBody as tronMalformedBody } from './node/methods.ts'
import type { TronNode, TronReply } from './node/types.ts'

/** Where the Tron node is served: TronWeb's `fullHost` is the sandbox's base URL + this. */
export const TRON_PATH = '/tron'

/** What the routes read of the sandbox: its live chains, the `tron` one carrying the node. */
interface TronRouteServices {
  readonly chains: ReadonlyMap<string, { readonly tron?: TronNode }>
}

const defineRoute = routesUsing<TronRouteServices>()

/** The call's JSON object (a GET's query when there is no body), or TronGrid's answer to a body that is not one. */
function bodyOf(
  raw: unknown,
  query: Record<string, unknown>,
): { input: Record<string, unknown> } | { refused: TronReply } {
  if (typeof raw !== 'string' || raw.trim() === '') return { input: { ...query } }
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch (error) {
    return { refused: tronMalformedBody((error as Error).message) }
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    return {
      refused: tronMalformedBody(
        `syntax error, expect {, actual ${Array.isArray(parsed) ? '[' : parsed === null ? 'null' : typeof parsed}`,
      ),
    }
  return { input: parsed as Record<string, unknown> }
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
        const read = bodyOf(body, request.query as Record<string, unknown>)
        // GET answers as POST does (TronWeb reads with GET when it wants int64 as strings)
        const reply: TronReply =
          'refused' in read ? read.refused : await chain.tron.call(`${api}/${name.toLowerCase()}`, read.input)
        return { status: reply.status, body: reply.body }
      },
    }),
  ),
)
