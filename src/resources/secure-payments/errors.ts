import { BadRequestError, ForbiddenError, NotFoundError, SandboxError } from '../../contract/sandbox-error.ts'

/** 404 `Secure payment not found` (an unknown token, or one of another tenant's on a keyed route). */
export class SecurePaymentNotFoundError extends NotFoundError {
  override name = 'SecurePaymentNotFoundError'
  constructor(message = 'Secure payment not found') {
    super(message)
  }
}

/** 409 `Secure payment has already been completed`. */
export class SecurePaymentCompletedError extends SandboxError {
  override name = 'SecurePaymentCompletedError'
  constructor() {
    super(409, 'Secure payment has already been completed')
  }
}

/** 403 `Secure payment token expired or invalid status` (expired, or combined into a batch). */
export class SecurePaymentUnavailableError extends ForbiddenError {
  override name = 'SecurePaymentUnavailableError'
  constructor(message = 'Secure payment token expired or invalid status') {
    super(message)
  }
}

/** 403 for a destinationId that is not the caller's, or a payer wallet the link does not allow. */
export class SecurePaymentForbiddenError extends ForbiddenError {
  override name = 'SecurePaymentForbiddenError'
}

/** 400 with the reason (bad destination, currency, mixed networks, not-pending tokens, TRON). */
export class SecurePaymentRequestError extends BadRequestError {
  override name = 'SecurePaymentRequestError'
}

/**
 * 423 `Secure payment is in progress`: a Safe transaction was recorded by /intent and has not executed yet
 * (api-features/safe-multisig-payments.mdx, "Status while a Safe payment is in progress").
 */
export class SecurePaymentInProgressError extends SandboxError {
  override name = 'SecurePaymentInProgressError'
  constructor(
    requestStatuses: {
      requestId: string
      hasBeenPaid: boolean
      safeTxHash: string
      chainId: number
      safePaymentDeadline: number | null
    }[],
  ) {
    super(423, 'Secure payment is in progress', {
      body: { message: 'Secure payment is in progress', status: 'pending', requestStatuses },
    })
  }
}

/** One refused child of a multicall payout (api-reference/secure-payments.mdx, Validation errors). */
export interface MulticallFailure {
  securePaymentToken: string
  reason: string
  messageKey: string
  context: Record<string, unknown>
  recoveryAction: string | null
}

/**
 * 400 `multicall_validation_failed`: `{message: "Multicall validation failed", code, failures, cap?}`, the envelope
 * the reference documents for ineligible children and for a count over the cap.
 */
export class MulticallValidationError extends SandboxError {
  override name = 'MulticallValidationError'
  constructor(
    failures: MulticallFailure[],
    cap?: { type: 'child_count'; maximum: number; actual: number; reduceBy: number },
  ) {
    super(400, 'Multicall validation failed', {
      body: {
        message: 'Multicall validation failed',
        code: 'multicall_validation_failed',
        failures,
        ...(cap ? { cap } : {}),
      },
    })
  }
}
