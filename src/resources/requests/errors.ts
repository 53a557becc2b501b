import { NotFoundError } from '../../contract/sandbox-error.ts'

/** 404 `Request not found`, as the service answers unknown request ids and references. */
export class RequestNotFoundError extends NotFoundError {
  override name = 'RequestNotFoundError'
  constructor() {
    super('Request not found')
  }
}
