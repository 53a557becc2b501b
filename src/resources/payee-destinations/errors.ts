import { BadRequestError, NotFoundError } from '../../contract/sandbox-error.ts'

/** 400 for a signature or nonce that does not authorise the call (the service's validation failure). */
export class PayeeSignatureError extends BadRequestError {
  override name = 'PayeeSignatureError'
}

/** 400 for a token the sandbox does not know on the given chain. */
export class PayeeTokenError extends BadRequestError {
  override name = 'PayeeTokenError'
}

/** 400 `Destination not found` (DELETE documents 400 for an unknown or inactive destination). */
export class DestinationNotFoundForDeactivationError extends BadRequestError {
  override name = 'DestinationNotFoundForDeactivationError'
  constructor() {
    super('Destination not found')
  }
}

/** 404 `Payee destination not found`. */
export class PayeeDestinationNotFoundError extends NotFoundError {
  override name = 'PayeeDestinationNotFoundError'
  constructor() {
    super('Payee destination not found')
  }
}
