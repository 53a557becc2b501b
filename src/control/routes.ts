import { defineRoute } from '../contract/route.ts'
import { SandboxError } from '../errors/sandbox-error.ts'

/** The sandbox's own surface that needs no credential: health, chain info and the JSON-RPC proxy. */
export const controlRoutes = [
  defineRoute({
    method: 'GET',
    path: '/__sandbox/health',
    auth: 'public',
    summary: 'Health: 200 when the chain answers',
    statuses: [200, 503],
    async handler(ctx) {
      const { chain } = ctx.shared
      if (!chain) return { status: 200, body: { status: 'ok', chain: null } }
      try {
        const blockNumber = await chain.publicClient.getBlockNumber({ cacheTime: 0 })
        return {
          status: 200,
          body: { status: 'ok', chain: { chainId: chain.chainId, blockNumber: Number(blockNumber) } },
        }
      } catch (error) {
        return {
          status: 503,
          body: {
            statusCode: 503,
            message: `Chain unavailable: ${(error as Error).message}`,
            error: 'Service Unavailable',
          },
        }
      }
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/__sandbox/chain',
    auth: 'public',
    summary: 'The live chain: RPC URL, chain id, contracts, tokens and funded accounts',
    statuses: [200, 404],
    handler(ctx, { request }) {
      const { chain } = ctx.shared
      if (!chain) throw new SandboxError(404, 'This sandbox runs without a chain')
      const host = request.headers.host
      return {
        status: 200,
        body: {
          network: chain.network,
          chainId: chain.chainId,
          rpcUrl: host ? `http://${host}/rpc` : chain.rpcUrl,
          anvilRpcUrl: chain.rpcUrl,
          contracts: chain.contracts,
          tokens: chain.tokens,
          accounts: chain.accounts.map((a) => ({ address: a.address, privateKey: a.privateKey })),
          chains: [...ctx.shared.chains.values()].map((c) => ({
            network: c.network,
            chainId: c.chainId,
            rpcUrl: host ? `http://${host}/rpc/${c.network}` : c.rpcUrl,
            anvilRpcUrl: c.rpcUrl,
            contracts: c.contracts,
            tokens: c.tokens,
          })),
          roles: {
            deployer: chain.roles.deployer.address,
            relayer: chain.roles.relayer.address,
            operator: chain.roles.operator.address,
          },
        },
      }
    },
  }),
  ...['/rpc', '/rpc/:network'].map((path) =>
    defineRoute({
      method: 'POST',
      path,
      auth: 'public',
      summary: 'JSON-RPC of a live chain (the first one at /rpc), on the sandbox port',
      statuses: [200, 404, 503],
      rawBody: true,
      async handler(ctx, { body, params }) {
        const network = (params as { network?: string }).network
        const chain = network ? ctx.shared.chains.get(network) : ctx.shared.chain
        if (!chain)
          throw new SandboxError(
            404,
            network ? `No live chain for network ${network}` : 'This sandbox runs without a chain',
          )
        const upstream = await fetch(chain.rpcUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: typeof body === 'string' ? body : '',
        }).catch((error: Error) => {
          throw new SandboxError(503, `Chain unavailable: ${error.message}`)
        })
        return { status: upstream.status, body: await upstream.text(), contentType: 'application/json' }
      },
    }),
  ),
]
