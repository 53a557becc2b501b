import { BadRequestError, NotFoundError } from '../../contract/sandbox-error.ts'

/** 404 `Payer with client user ID … not found` (the documented message). */
export class PayerNotFoundError extends NotFoundError {
  override name = 'PayerNotFoundError'
  constructor(clientUserId: string) {
    super(`Payer with client user ID ${clientUserId} not found`)
  }
}

/** 400 for a second `POST /payer` with the same clientUserId. */
export class PayerExistsError extends BadRequestError {
  override name = 'PayerExistsError'
  constructor(clientUserId: string) {
    super(`Payer with client user ID ${clientUserId} already exists`)
  }
}

/** 400 for a move the compliance state machine refuses. */
export class IllegalComplianceMoveError extends BadRequestError {
  override name = 'IllegalComplianceMoveError'
}

/** 404 for a payer page link that the sandbox never issued (or whose tenant was reset). */
export class PageLinkNotFoundError extends NotFoundError {
  override name = 'PageLinkNotFoundError'
  constructor() {
    super('This agreement or KYC link is not valid')
  }
}
