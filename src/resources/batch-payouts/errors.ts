import { BadRequestError } from '../../contract/sandbox-error.ts'

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
