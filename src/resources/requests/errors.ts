import { FieldListError, NotFoundError } from '../../contract/sandbox-error.ts'

/** 404 `Request not found`, as the service answers unknown request ids and references. */
export class RequestNotFoundError extends NotFoundError {
  override name = 'RequestNotFoundError'
  constructor() {
    super('Request not found')
  }
}

/** 400 `Validation failed` naming one body field, for rules zod alone cannot check (currencies exist, dates). */
export class RequestFieldError extends FieldListError {
  override name = 'RequestFieldError'
  constructor(field: string, message: string) {
    super([{ field, message }], { withStatusCode: true })
  }
}
