import { type FieldError, NotFoundError, SandboxError } from '../../contract/sandbox-error.ts'

/** 400 `Invalid bank account details` (E1), plus `errors: [{field, message}]` naming what is wrong. */
export class InvalidBankDetailsError extends SandboxError {
  override name = 'InvalidBankDetailsError'
  constructor(readonly errors: FieldError[]) {
    super(400, 'Invalid bank account details', {
      body: { statusCode: 400, message: 'Invalid bank account details', error: 'Bad Request', errors },
    })
  }
}

/** 404 of POST payment-details for an unknown payer (the documented message). */
export class UserNotFoundError extends NotFoundError {
  override name = 'UserNotFoundError'
  constructor(clientUserId: string) {
    super(`User with ID ${clientUserId} not found`)
  }
}

/** 404 for a payment detail id the payer does not have. */
export class PaymentDetailNotFoundError extends NotFoundError {
  override name = 'PaymentDetailNotFoundError'
  constructor(id: string) {
    super(`Payment details with ID ${id} not found`)
  }
}
