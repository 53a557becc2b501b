import { pinBaseFee } from '../chain/index.ts'
import { publicBaseUrl } from '../contract/public-url.ts'
import { routesUsing } from '../contract/route.ts'
import { SandboxError } from '../contract/sandbox-error.ts'
import { ChainUnavailableError } from '../errors/chain-unavailable.ts'
import { createControl } from './control.ts'
import { chainHealth } from './health.ts'
import { rpcCalls } from './rpc-guard.ts'
import { checkRawNonces } from './rpc-transactions.ts'
import type { SandboxState } from './services.ts'

const defineRoute = routesUsing<SandboxState>()

/** The sandbox's own surface that needs no credential: health, chain info and the JSON-RPC proxy. */
/** How long /rpc waits for the node (anvil_dumpState of a large state can take seconds). */
const RPC_PROXY_TIMEOUT_MS = 60_000

export const controlRoutes = [
  defineRoute({
    method: 'GET',
    path: '/__sandbox/health',
    credentials: ['public'],
    surface: 'control',
    summary:
      'Health: 200 when every chain answers with its contracts; 503 degraded with the reason otherwise',
    statuses: [200, 503],
    handler: (ctx) => chainHealth(ctx),
  }),
  defineRoute({
    method: 'GET',
    path: '/__sandbox/chain',
    credentials: ['public'],
    surface: 'control',
    summary: 'The live chain: RPC URL, chain id, contracts, tokens and funded accounts',
    statuses: [200, 404],
    handler: (ctx, { request }) => ({
      status: 200,
      // the sandbox's public URL (X-Forwarded-*, a validated Host); a call without a Host gets anvil's own URLs
      body: createControl(ctx).chainInfo(request.headers.host ? publicBaseUrl(request) : undefined),
    }),
  }),
  ...['/rpc', '/rpc/:network'].map((path) =>
    defineRoute({
      method: 'POST',
      path,
      credentials: ['public'],
      surface: 'control',
      summary: 'JSON-RPC of a live chain (the first one at /rpc), on the sandbox port',
      statuses: [200, 404, 503],
      rawBody: true,
      async handler(ctx, { body, params }) {
        const network = (params as { network?: string }).network
        const chain = network ? ctx.chains.get(network) : ctx.chain
        if (!chain)
          throw new SandboxError(
            404,
            network ? `No live chain for network ${network}` : 'This sandbox runs without a chain',
          )
        // bounded: a node that stalls (not dead) answers 503 after a minute instead of holding the call forever
        const signal = AbortSignal.timeout(RPC_PROXY_TIMEOUT_MS)
        const unavailable = (error: Error): never => {
          throw new ChainUnavailableError(
            error.name === 'TimeoutError' ? `no answer in ${RPC_PROXY_TIMEOUT_MS} ms` : error.message,
          )
        }
        // on a shared listener a caller's transactions are mined now (rpc-transactions.ts) and cannot raise the base
        // fee: it is 0 for good (chain/base-fee.ts)
        if (ctx.security.exposed && /eth_send(Raw)?Transaction/.test(String(body ?? ''))) {
          await checkRawNonces(chain, rpcCalls(typeof body === 'string' ? body : undefined))
          await pinBaseFee(chain).catch(() => {})
        }
        const upstream = await fetch(chain.rpcUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: typeof body === 'string' ? body : '',
          signal,
        }).catch(unavailable)
        const text = await upstream.text().catch(unavailable)
        // a receipt leaves once the chain's saved state holds its block: a kill of anvil or of the sandbox keeps it
        if (chain.keepBlock && String(body ?? '').includes('eth_getTransactionReceipt')) {
          const block = receiptBlock(text)
          if (block !== null) await chain.keepBlock(block)
        }
        return { status: upstream.status, body: text, contentType: 'application/json' }
      },
    }),
  ),
]

/** The highest block number of the receipts in a JSON-RPC answer (one call or a batch), or null. */
function receiptBlock(text: string): bigint | null {
  let answer: unknown
  try {
    answer = JSON.parse(text)
  } catch {
    return null
  }
  let highest: bigint | null = null
  for (const item of Array.isArray(answer) ? answer : [answer]) {
    const result = (item as { result?: { blockNumber?: unknown; transactionHash?: unknown } } | null)?.result
    if (!result || typeof result.blockNumber !== 'string' || typeof result.transactionHash !== 'string')
      continue
    const block = BigInt(result.blockNumber)
    if (highest === null || block > highest) highest = block
  }
  return highest
}
