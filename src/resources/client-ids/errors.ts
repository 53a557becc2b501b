import { BadRequestError, NotFoundError } from '../../contract/sandbox-error.ts'

/** 404 `Client ID not found` (also for another tenant's id). */
export class ClientIdNotFoundError extends NotFoundError {
  override name = 'ClientIdNotFoundError'
  constructor() {
    super('Client ID not found')
  }
}

/** 400: a revoked client ID is final. */
export class RevokedClientIdError extends BadRequestError {
  override name = 'RevokedClientIdError'
  constructor() {
    super('Cannot reactivate a revoked client ID')
  }
}
