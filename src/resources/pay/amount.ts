import { decimalsOf, toBaseUnits } from '../../contract/amounts.ts'
import type { CurrencyFixture } from '../currencies/index.ts'
import type { RequestRecord } from '../requests/index.ts'
import { remainingUnits } from '../requests/index.ts'
import type { Uses } from '../services.ts'
import { PaymentNotPossibleError, payFieldError } from './errors.ts'
import type { PayOptions } from './pay-options.ts'

type Ctx = Uses<'conversion' | 'currencies' | 'events' | 'ids' | 'offrampAddress' | 'paymentReferences'>

/**
 * The amount to pay now, in base units of `currency` (the request's invoice currency: what remains is counted
 * in it): the `amount` asked, capped to what remains, else what remains; 400 when it is finer than the currency or
 * nothing remains.
 */
export function amountToPay(
  ctx: Ctx,
  record: RequestRecord,
  query: PayOptions,
  currency: CurrencyFixture,
): bigint {
  const remaining = remainingUnits(ctx, record)
  if (query.amount !== undefined) {
    if (decimalsOf(query.amount) > currency.decimals) {
      throw payFieldError(
        'amount',
        `Amount has more decimals than ${currency.id} supports (${currency.decimals})`,
      )
    }
    const asked = toBaseUnits(query.amount, currency.decimals)
    // "prevents overpayment by capping amounts to the remaining balance" (api-features/create-requests.mdx)
    if (remaining <= 0n) throw new PaymentNotPossibleError('Request has already been paid')
    if (asked > remaining) return remaining
    return asked
  }
  if (remaining <= 0n) throw new PaymentNotPossibleError('Request has already been paid')
  return remaining
}
