// Conversion on Tron: Request Network runs no conversion proxy there (its Tron contracts are ERC20FeeProxy and the
// ERC20BatchPayments batch contract, no Chainlink path), so a fiat-invoiced Tron request is priced off chain: /pay
// quotes the TRC-20 amount with the sandbox's rates and the payer pays that amount through ERC20FeeProxy. A payment
// counts, in the invoice currency, for the quote whose token amount it paid; else at the latest quote's rate; else
// at the rate in force when it is detected. The last MAX_TRON_QUOTES quotes of a request are kept.
import type { DetectedTransfer } from '../../chain/index.ts'
import { divWad, mulWad, unitsToWad, wadToUnits } from '../../contract/decimal.ts'
import type { World } from '../../contract/world.ts'
import { TRON_NETWORK } from '../../tron/index.ts'
import type { CurrencyFixture } from '../currencies/index.ts'
import type { Services } from '../services.ts'
import type { RequestRecord, TronQuote } from './schema.ts'
import { tronQuoteState } from './tables.ts'

type Shared = Services<'conversion' | 'currencies'>

/** How many quotes of one request are kept (a payer may pay any of the latest ones). */
export const MAX_TRON_QUOTES = 8

/** Whether the request is a Tron one invoiced in another currency (priced off chain, paid through ERC20FeeProxy). */
export function isTronConversion(record: RequestRecord): boolean {
  return record.network === TRON_NETWORK && record.invoiceCurrency !== record.paymentCurrency
}

/** `units` of `from` in base units of `to` at `rate` (`to` per `from`, a wad), rounded up: the payer never pays short. */
export function convertUp(units: bigint, from: CurrencyFixture, to: CurrencyFixture, rate: bigint): bigint {
  const wad = mulWad(unitsToWad(units, from.decimals), rate)
  const out = wadToUnits(wad, to.decimals)
  return unitsToWad(out, to.decimals) < wad ? out + 1n : out
}

/** Keeps a /pay quote of a Tron conversion request (the oldest dropped past MAX_TRON_QUOTES). */
export async function keepTronQuote(
  world: World,
  requestId: string,
  quote: { invoiceUnits: bigint; paidUnits: bigint; rate: bigint },
): Promise<void> {
  const table = tronQuoteState(world).quotes
  const entry: TronQuote = {
    invoiceUnits: quote.invoiceUnits.toString(),
    paidUnits: quote.paidUnits.toString(),
    rate: quote.rate.toString(),
    quotedAt: world.clock.nowIso(),
  }
  if (!table.get(requestId)) {
    await table.insert({ requestId, quotes: [entry] })
    return
  }
  await table.update(requestId, (draft) => {
    draft.quotes.push(entry)
    if (draft.quotes.length > MAX_TRON_QUOTES) draft.quotes.splice(0, draft.quotes.length - MAX_TRON_QUOTES)
  })
}

/** What a TRC-20 payment of a Tron conversion request counts for, in the invoice currency's base units. */
export function tronCreditedUnits(
  shared: Shared,
  world: World,
  record: RequestRecord,
  t: DetectedTransfer,
): bigint {
  const invoice = shared.currencies.byId(record.invoiceCurrency)!
  const paid = shared.currencies.byId(record.paymentCurrency)!
  const quotes = tronQuoteState(world).quotes.get(record.requestId)?.quotes ?? []
  const exact = quotes.findLast((q) => BigInt(q.paidUnits) === t.amount)
  if (exact) return BigInt(exact.invoiceUnits)
  const latest = quotes.at(-1)
  const rate = latest ? BigInt(latest.rate) : shared.conversion.rate(world, invoice.id, paid.id)
  if (!rate) return 0n
  // invoice units per token unit = 1 / rate, rounded down: a payment never counts for more than it paid
  return wadToUnits(divWad(unitsToWad(t.amount, paid.decimals), rate), invoice.decimals)
}
