import { BadRequestError, FieldListError, NotFoundError } from '../../contract/sandbox-error.ts'

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

/** 400 `Validation failed` naming one field, for rules that need the stored record (fee settings). */
export class ClientIdFieldError extends FieldListError {
  override name = 'ClientIdFieldError'
  constructor(field: string, message: string) {
    super([{ field, message }], { withStatusCode: true })
  }
}
