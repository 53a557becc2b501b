import { BadRequestError, FieldListError } from '../../contract/sandbox-error.ts'

/** 400 for a request the sandbox cannot produce calldata for, with the reason. */
export class PaymentNotPossibleError extends BadRequestError {
  override name = 'PaymentNotPossibleError'
}

/** 400 `{message: "Validation failed", errors}` for a query value that fits its format but not the request. */
export class PayFieldError extends FieldListError {
  override name = 'PayFieldError'
  constructor(field: string, message: string) {
    super([{ field, message }])
  }
}
