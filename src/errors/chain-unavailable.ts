import { SandboxError } from '../contract/sandbox-error.ts'

/** 503 in the service's shape: a call needed the chain and the chain did not answer (restarting, or gone). */
export class ChainUnavailableError extends SandboxError {
  override name = 'ChainUnavailableError'
  constructor(detail: string) {
    super(503, `Chain unavailable: ${detail}`)
  }
}

// the test of an unreachable node is shared with the chain's watchers
export { isChainUnreachable } from '../contract/chain-unreachable.ts'
