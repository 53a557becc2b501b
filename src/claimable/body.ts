// The body of POST /__sandbox/sandboxes: the route takes none. An empty body (or none), or an empty JSON object, is
// accepted; anything else answers 400 naming what is wrong (not JSON, not an object, the fields it does not take),
// a body past the API's bound 413, before any claim is counted.
import type { IncomingMessage } from 'node:http'
import { readCappedBody } from '../contract/capped-body.ts'
import { MAX_BODY_BYTES } from '../contract/neutral.ts'
import { SandboxError } from '../contract/sandbox-error.ts'

const NO_BODY = 'POST /__sandbox/sandboxes takes no body (or an empty JSON object, {})'

/** Reads the request's body; resolves with the error to answer, or null when the body is one the route accepts. */
export async function claimBodyError(req: IncomingMessage): Promise<SandboxError | null> {
  const body = await readCappedBody(req)
  if ('over' in body) return new SandboxError(413, `${NO_BODY}: this one is past ${MAX_BODY_BYTES} bytes`)
  if ('cut' in body) return new SandboxError(400, `${NO_BODY}: this one was cut short`)
  return bodyError(body.text)
}

/** The error of a body the route does not take, or null. */
function bodyError(text: string): SandboxError | null {
  if (text.trim() === '') return null
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return new SandboxError(400, `${NO_BODY}: this one is not JSON (${(error as Error).message})`)
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return new SandboxError(
      400,
      `${NO_BODY}: this one is ${value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`}`,
    )
  const fields = Object.keys(value)
  if (fields.length === 0) return null
  const named = fields
    .slice(0, 5)
    .map((f) => JSON.stringify(f.slice(0, 64)))
    .join(', ')
  return new SandboxError(
    400,
    `${NO_BODY}: unknown field${fields.length > 1 ? 's' : ''} ${named}${fields.length > 5 ? ', ...' : ''}`,
  )
}
