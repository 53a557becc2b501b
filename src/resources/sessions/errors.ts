import { NotFoundError, SandboxError } from '../../contract/sandbox-error.ts'

/** 404 `Session not found`: a token that is not live, or that belongs to another key. */
export class SessionNotFoundError extends NotFoundError {
  override name = 'SessionNotFoundError'
  constructor() {
    super('Session not found')
  }
}

/** 429 naming the bound on live session tokens per key. */
export class TooManySessionsError extends SandboxError {
  override name = 'TooManySessionsError'
  constructor(max: number) {
    super(
      429,
      `A key may hold at most ${max} live session tokens: end one with DELETE /__sandbox/sessions/{token} or let it expire`,
    )
  }
}
