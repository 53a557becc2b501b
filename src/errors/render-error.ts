import type { NeutralResponse } from '../contract/neutral.ts'
import { SandboxError } from '../contract/sandbox-error.ts'

/** Turns anything thrown while handling a request into the service's error response; unexpected errors are 500s. */
export function renderError(error: unknown, log: (message: string, error: unknown) => void): NeutralResponse {
  if (error instanceof SandboxError) {
    return { status: error.status, headers: { ...error.headers }, body: error.body }
  }
  log('unexpected error while handling a request', error)
  return {
    status: 500,
    headers: {},
    body: { statusCode: 500, message: 'Internal server error', error: 'Internal Server Error' },
  }
}
