// GET /__sandbox/health: `ok` when every live chain answers and has its contracts; otherwise 503 `degraded` in the
// service's error shape with the reason (an anvil being restarted by its supervisor, a node that does not answer,
// a dev node reset under --rpc-url that lost the contracts).
import { blockNumber, hasCode } from '../chain/index.ts'
import { ChainUnavailableError } from '../errors/chain-unavailable.ts'
import type { SandboxState } from './services.ts'

type HealthAnswer = { status: number; body: Record<string, unknown> }

async function probe(shared: SandboxState, network: string) {
  const chain = shared.chains.get(network)!
  const supervised = shared.supervisors.get(network)?.health()
  if (supervised?.status === 'degraded')
    return { network, chainId: chain.chainId, reason: supervised.reason! }
  try {
    const proxy = chain.contracts.ERC20FeeProxy
    const [number, installed] = await Promise.all([
      blockNumber(chain),
      proxy ? hasCode(chain, proxy) : Promise.resolve(true),
    ])
    if (!installed)
      return {
        network,
        chainId: chain.chainId,
        reason: `ERC20FeeProxy is missing on ${network} at ${proxy} (was the node reset?)`,
      }
    return {
      network,
      chainId: chain.chainId,
      blockNumber: number,
      ...(supervised ? { restarts: supervised.restarts } : {}),
    }
  } catch (error) {
    return {
      network,
      chainId: chain.chainId,
      reason: `${network} does not answer: ${(error as Error).message.split('\n')[0]}`,
    }
  }
}

/** The health answer: 200 ok, or 503 degraded naming what is wrong. */
export async function chainHealth(shared: SandboxState): Promise<HealthAnswer> {
  const { chain } = shared
  if (!chain) return { status: 200, body: { status: 'ok', chain: null } }
  const chains = await Promise.all([...shared.chains.keys()].map((network) => probe(shared, network)))
  const broken = chains.filter(
    (c): c is (typeof chains)[number] & { reason: string } => 'reason' in c && !!c.reason,
  )
  const first = chains[0]!
  if (broken.length) {
    const reason = broken.map((c) => c.reason).join('; ')
    return {
      status: 503,
      body: {
        ...new ChainUnavailableError(reason).body,
        status: 'degraded',
        reason,
        chains,
      },
    }
  }
  return {
    status: 200,
    body: {
      status: 'ok',
      chain: { chainId: chain.chainId, blockNumber: (first as { blockNumber?: number }).blockNumber },
      chains,
    },
  }
}
