import { BadRequestError, FieldListError } from '../../contract/sandbox-error.ts'

/** 400 `All requests must be on the same network` (E1), exactly as the service documents it. */
export class MixedNetworksError extends BadRequestError {
  override name = 'MixedNetworksError'
  constructor() {
    super('All requests must be on the same network')
  }
}

/** 400 for a batch the sandbox cannot pay (already paid, conversion, no batch contract), with the reason. */
export class BatchNotPossibleError extends BadRequestError {
  override name = 'BatchNotPossibleError'
}

/** 400 `Validation failed` naming one body field (a currency that does not exist or cannot be paid). */
export class BatchFieldError extends FieldListError {
  override name = 'BatchFieldError'
  constructor(field: string, message: string) {
    super([{ field, message }], { withStatusCode: true })
  }
}
