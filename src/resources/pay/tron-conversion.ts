// /pay of a Tron request invoiced in fiat: Tron has no conversion proxy (Request Network's Tron contracts are
// ERC20FeeProxy and its batch contract), so the amount still owed and its fee, in the invoice currency, are priced in
// the TRC-20 payment currency at the sandbox's rate (fixtures/rates.json and the key's POST /__sandbox/rates) and paid
// through ERC20FeeProxy. The quote is kept on the request: the payment counts for what it was quoted for.
import { feeUnits } from '../../contract/amounts.ts'
import { effectiveFee } from '../client-ids/index.ts'
import type { CurrencyFixture } from '../currencies/index.ts'
import type { RequestRecord } from '../requests/index.ts'
import { convertUp, keepTronQuote } from '../requests/index.ts'
import type { Uses } from '../services.ts'
import { amountToPay } from './amount.ts'
import { PaymentNotPossibleError } from './errors.ts'
import type { PayOptions, PayServiceNames } from './pay-options.ts'

type Ctx = Uses<PayServiceNames>

/** A priced Tron conversion: token amount and fee to send, and `keep` to record the quote once the steps are built. */
export interface TronConversionQuote {
  amount: bigint
  fee: bigint
  /** what is paid now in the invoice currency's base units */
  invoiceUnits: bigint
  /** invoice-currency units in the payment currency, at the quote's rate (rounded up, as the amount is) */
  convert(units: bigint): bigint
  keep(): Promise<void>
}

/** Prices what remains of a fiat-invoiced Tron request (or the `amount` asked, in the invoice currency) in `paid`. */
export function quoteTronConversion(
  ctx: Ctx,
  record: RequestRecord,
  query: PayOptions,
  paid: CurrencyFixture,
): TronConversionQuote {
  const invoice = ctx.currencies.byId(record.invoiceCurrency)!
  const rate = ctx.conversion.rate(ctx.world, invoice.id, paid.id)
  if (!rate) throw new PaymentNotPossibleError(`No conversion rate from ${invoice.id} to ${paid.id}`)
  const owed = amountToPay(ctx, record, query, invoice)
  const feeOwed = feeUnits(owed, effectiveFee(ctx, query).feePercentage)
  const amount = convertUp(owed, invoice, paid, rate)
  return {
    amount,
    fee: convertUp(feeOwed, invoice, paid, rate),
    invoiceUnits: owed,
    convert: (units) => convertUp(units, invoice, paid, rate),
    keep: () => keepTronQuote(ctx.world, record.requestId, { invoiceUnits: owed, paidUnits: amount, rate }),
  }
}
