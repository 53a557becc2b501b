import { type NeutralResponse, neutralResponse } from '../contract/neutral.ts'
import { SandboxError } from '../contract/sandbox-error.ts'
import { ChainUnavailableError, isChainUnreachable } from './chain-unavailable.ts'

/** Turns anything thrown while handling a request into the service's error response; unexpected errors are 500s. */
export function renderError(error: unknown, log: (message: string, error: unknown) => void): NeutralResponse {
  if (error instanceof SandboxError) {
    return neutralResponse(error.status, { ...error.headers }, error.body)
  }
  // a chain read or send that found no node (anvil restarting, a dev node gone): 503, never a 500
  if (isChainUnreachable(error)) {
    const e = new ChainUnavailableError(
      'the chain node does not answer; retry in a moment (GET /__sandbox/health)',
    )
    return neutralResponse(e.status, { 'retry-after': '2' }, e.body)
  }
  log('unexpected error while handling a request', error)
  return neutralResponse(
    500,
    {},
    {
      statusCode: 500,
      message: 'Internal server error',
      error: 'Internal Server Error',
    },
  )
}
