import { BadRequestError, NotFoundError } from '../../contract/sandbox-error.ts'

/** 404 `Recurring payment not found`. */
export class RecurringPaymentNotFoundError extends NotFoundError {
  override name = 'RecurringPaymentNotFoundError'
  constructor() {
    super('Recurring payment not found')
  }
}

/** 400 for a move the payout's state forbids (already active, already cancelled, not paused...). */
export class RecurringPaymentStateError extends BadRequestError {
  override name = 'RecurringPaymentStateError'
}

/** 400 `Invalid signature provided`: malformed, or not the payer's signature of the permit. */
export class InvalidPermitSignatureError extends BadRequestError {
  override name = 'InvalidPermitSignatureError'
  constructor() {
    super('Invalid signature provided')
  }
}

/** 400 `Invalid action: <action>` for a PATCH action other than cancel and unpause. */
export class InvalidActionError extends BadRequestError {
  override name = 'InvalidActionError'
  constructor(action: string) {
    super(`Invalid action: ${action}`)
  }
}

/** 400 for a recurring payout the sandbox cannot run (network without a live chain or proxy). */
export class RecurringNotAvailableError extends BadRequestError {
  override name = 'RecurringNotAvailableError'
}
