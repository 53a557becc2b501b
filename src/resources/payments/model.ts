// Differences from the real service: the search covers the caller's requests and the payments the sandbox
// detected on its own chains. `amount` is human-readable in the payment currency (the documented schema; its
// examples show base units). Conversion fields: source is the invoice side, destination the paid side.

import { divWad, formatWad, toWad, WAD } from '../../contract/decimal.ts'
import { payoutOfChildRequest } from '../payouts/index.ts'
import type { DetectedPayment, RequestRecord } from '../requests/index.ts'
import { hasBeenPaid, requestState } from '../requests/index.ts'
import type { Uses } from '../services.ts'
import type { PaymentSearchQuery } from './schema.ts'

type Ctx = Uses<
  'conversion' | 'currencies' | 'events' | 'ids' | 'offrampAddress' | 'paymentReferences' | 'relayers'
>

const eq = (a: string | null | undefined, b: string) => !!a && a.toLowerCase() === b.toLowerCase()

function currencyMatches(ctx: Ctx, id: string, wanted: string): boolean {
  const currency = ctx.currencies.byId(id)
  return eq(id, wanted) || eq(currency?.symbol, wanted)
}

function matches(ctx: Ctx, q: PaymentSearchQuery, r: RequestRecord, p: DetectedPayment): boolean {
  if (q.txHash && !eq(p.txHash, q.txHash)) return false
  if (q.walletAddress && !eq(p.from, q.walletAddress) && !eq(p.to, q.walletAddress)) return false
  if (q.paymentReference && !eq(r.paymentReference, q.paymentReference)) return false
  if (q.requestId && !eq(r.requestId, q.requestId)) return false
  if (q.reference && r.reference !== q.reference) return false
  if (q.type && p.type !== q.type) return false
  if (q.invoiceCurrency && !currencyMatches(ctx, r.invoiceCurrency, q.invoiceCurrency)) return false
  if (q.paymentCurrency && !currencyMatches(ctx, r.paymentCurrency, q.paymentCurrency)) return false
  const at = Date.parse(p.timestamp)
  if (q.fromDate && at < Date.parse(q.fromDate)) return false
  if (q.toDate && at > Date.parse(q.toDate)) return false
  return true
}

function shape(ctx: Ctx, r: RequestRecord, p: DetectedPayment) {
  const invoice = ctx.currencies.byId(r.invoiceCurrency)!
  const paid = ctx.currencies.byId(r.paymentCurrency)!
  const rate = p.conversionRate
  return {
    id: p.id,
    amount: p.paidAmount,
    sourceNetwork: p.network,
    destinationNetwork: p.network,
    sourceTxHash: p.txHash,
    destinationTxHash: null,
    timestamp: p.timestamp,
    type: p.type,
    conversionRateSource: rate ? formatWad(divWad(WAD, toWad(rate)), 12) : null,
    conversionRateDestination: rate,
    convertedAmountSource: rate ? p.amount : null,
    convertedAmountDestination: rate ? p.paidAmount : null,
    currency: invoice.symbol,
    paymentCurrency: paid.symbol,
    fees: [
      {
        type: 'gas' as const,
        stage: 'sending' as const,
        provider: p.network,
        amount: p.gasFee,
        // Tron burns TRX for energy and bandwidth (gasFee holds it in 18-decimal units, as wei on the EVM chains)
        currency: p.network === 'tron' ? 'TRX' : 'ETH',
        network: p.network,
      },
      ...(BigInt(p.feeAmountRaw) > 0n
        ? [
            {
              type: 'platform' as const,
              stage: 'sending' as const,
              provider: 'request-network',
              amount: p.feeAmount,
              currency: paid.symbol,
              receiverAddress: p.feeAddress,
              network: p.network,
            },
          ]
        : []),
    ],
    recurringPaymentId: payoutOfChildRequest(ctx.world, r.requestId)?.id ?? null,
    rateProvider: rate ? ('chainlink' as const) : null,
    request: {
      requestId: r.requestId,
      paymentReference: r.paymentReference,
      hasBeenPaid: hasBeenPaid(ctx, r),
      customerInfo: r.customerInfo,
      reference: r.reference,
    },
  }
}

/** 'paid' for a request with payments (the index GET /v2/payments reads: requests without any never match). */
const withPayments = (r: RequestRecord) => (r.payments.length ? 'paid' : undefined)

/** `GET /v2/payments`: the caller's detected payments matching every filter, newest first, paginated. */
export function searchPayments(ctx: Ctx, q: PaymentSearchQuery) {
  const found = requestState(ctx.world)
    .requests.where(withPayments, 'paid')
    .flatMap((r) => r.payments.filter((p) => matches(ctx, q, r, p)).map((p) => ({ r, p })))
    .sort(
      (a, b) =>
        b.p.timestamp.localeCompare(a.p.timestamp) ||
        b.p.blockNumber - a.p.blockNumber ||
        b.p.logIndex - a.p.logIndex,
    )
  const limit = Number(q.limit ?? 20)
  const offset = Number(q.offset ?? 0)
  const page = found.slice(offset, offset + limit)
  return {
    payments: page.map(({ r, p }) => shape(ctx, r, p)),
    pagination: { total: found.length, limit, offset, hasMore: offset + page.length < found.length },
  }
}
