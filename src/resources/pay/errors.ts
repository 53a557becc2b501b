import { BadRequestError, OneFieldError } from '../../contract/sandbox-error.ts'

/** 400 for a request the sandbox cannot produce calldata for, with the reason. */
export class PaymentNotPossibleError extends BadRequestError {
  override name = 'PaymentNotPossibleError'
}

/** 400 `Validation failed` naming one query field, without statusCode (as the pay endpoints answer). */
export function payFieldError(field: string, message: string): OneFieldError {
  return new OneFieldError(field, message, { withStatusCode: false })
}
