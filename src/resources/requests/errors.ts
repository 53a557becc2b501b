import { BadRequestError, NotFoundError } from '../../contract/sandbox-error.ts'

/** 404 `Request not found`, as the service answers unknown request ids and references. */
export class RequestNotFoundError extends NotFoundError {
  override name = 'RequestNotFoundError'
  constructor() {
    super('Request not found')
  }
}

/** 400 for a stop on a request that has no recurrence (E1). */
export class NotRecurringError extends BadRequestError {
  override name = 'NotRecurringError'
  constructor() {
    super('Request is not a recurring request')
  }
}

/** 400 for a second stop of the same recurrence (E1). */
export class RecurrenceAlreadyStoppedError extends BadRequestError {
  override name = 'RecurrenceAlreadyStoppedError'
  constructor() {
    super('Recurrence is already stopped')
  }
}
