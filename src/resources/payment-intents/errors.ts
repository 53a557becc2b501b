import { BadRequestError, NotFoundError } from '../../contract/sandbox-error.ts'

/** 404 `Payment intent data not found`, as the service documents for unknown (or other tenants') intents. */
export class PaymentIntentNotFoundError extends NotFoundError {
  override name = 'PaymentIntentNotFoundError'
  constructor() {
    super('Payment intent data not found')
  }
}

/** 400 for a send the sandbox refuses before anything moves (signature, nonce, deadline, replay). */
export class PaymentIntentRefusedError extends BadRequestError {
  override name = 'PaymentIntentRefusedError'
}
