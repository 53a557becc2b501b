import { BadRequestError, NotFoundError, SandboxError } from '../../contract/sandbox-error.ts'

/** 404 `Commerce payment not found` (no commerce payment under this request id for the caller). */
export class CommercePaymentNotFoundError extends NotFoundError {
  override name = 'CommercePaymentNotFoundError'
  constructor() {
    super('Commerce payment not found')
  }
}

/** 400 for terms the escrow would refuse (currency, amounts, expiries, no chain). */
export class CommerceTermsError extends BadRequestError {
  override name = 'CommerceTermsError'
}

/** 409 for an operation the payment's current state does not allow (capture after void, ...). */
export class CommerceStateError extends SandboxError {
  override name = 'CommerceStateError'
  constructor(message: string) {
    super(409, message)
  }
}
