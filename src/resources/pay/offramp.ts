// Differences from the real service: the off-ramp provider is the sandbox itself; its deposit address is
// shared.offrampAddress and the checks are the ones the API documents (compliant payer, approved details).
import type { CurrencyFixture } from '../currencies/index.ts'
import { getPayer, isCompliant } from '../payers/index.ts'
import { findPaymentDetail, PaymentDetailNotFoundError } from '../payment-details/index.ts'
import type { RequestRecord } from '../requests/index.ts'
import { isConversion } from '../requests/index.ts'
import type { Uses } from '../services.ts'
import { PaymentNotPossibleError, payFieldError } from './errors.ts'
import type { PayOptions } from './pay-options.ts'

type Ctx = Uses<'compliance' | 'directory' | 'events' | 'ids' | 'offrampAddress'>

/** The off-ramp a payment goes through: whose bank account receives the fiat. */
export interface OfframpChoice {
  clientUserId: string
  paymentDetailsId: string
}

/**
 * Checks the off-ramp parameters of `/pay` in the order a caller fixes them: the request allows crypto-to-fiat,
 * the payer exists (404) and is compliant, the payment detail is the payer's (404) and approved, the payment is
 * an ERC-20 without conversion. A crypto-to-fiat request without payee can only be paid this way.
 */
export function offrampChoice(
  ctx: Ctx,
  record: RequestRecord,
  query: PayOptions,
  currency: CurrencyFixture,
): OfframpChoice | null {
  const { clientUserId, paymentDetailsId } = query
  if (!clientUserId || !paymentDetailsId) {
    if (record.isCryptoToFiatAvailable && !record.payee)
      throw payFieldError(
        'clientUserId',
        'clientUserId and paymentDetailsId are required to pay a crypto-to-fiat request without payee',
      )
    return null
  }
  if (!record.isCryptoToFiatAvailable)
    throw new PaymentNotPossibleError('Crypto-to-fiat payment is not available for this request')
  const payer = getPayer(ctx, clientUserId)
  if (!isCompliant(payer))
    throw new PaymentNotPossibleError(
      `Payer with client user ID ${clientUserId} is not compliant (KYC ${payer.kycStatus}, agreement ${payer.agreementStatus})`,
    )
  const detail = findPaymentDetail(ctx.world, clientUserId, paymentDetailsId)
  if (!detail) throw new PaymentDetailNotFoundError(paymentDetailsId)
  if (detail.status !== 'approved')
    throw new PaymentNotPossibleError(
      `Payment details with ID ${paymentDetailsId} are not approved (status: ${detail.status})`,
    )
  if (isConversion(record) || currency.type !== 'ERC20')
    throw new PaymentNotPossibleError(
      'Crypto-to-fiat payments are made in an ERC-20 token, without conversion',
    )
  return { clientUserId, paymentDetailsId }
}
