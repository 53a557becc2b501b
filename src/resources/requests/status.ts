// Differences from the real service: USD amounts and rates come from the sandbox's rates (fixture and tenant
// overrides), always reported with rateSource `chainlink`; fees list the gas and proxy fees actually paid.
import { fromBaseUnits } from '../../contract/amounts.ts'
import { formatWad, formatWadFixed, toWad } from '../../contract/decimal.ts'
import type { World } from '../../contract/world.ts'
import type { Services } from '../services.ts'
import { expectedUnits, isConversion, isFullyPaid, paidUnits } from './model.ts'
import { isOfframpRequest } from './offramp.ts'
import type { RequestRecord } from './schema.ts'

type Shared = Services<
  'conversion' | 'currencies' | 'events' | 'ids' | 'offrampAddress' | 'paymentReferences'
>

/** Whether the request counts as paid: fully paid, and for crypto-to-fiat once the fiat was sent. */
export function hasBeenPaid(shared: Shared, record: RequestRecord): boolean {
  if (!isFullyPaid(shared, record)) return false
  return !isOfframpRequest(shared, record) || record.offrampState?.subStatus === 'fiat_sent'
}

/** `status`: pending, partially_paid, paid; processing or failed while a crypto-to-fiat payment is off-ramped. */
export function statusOf(shared: Shared, record: RequestRecord): string {
  if (record.payments.length === 0) return 'pending'
  if (!isFullyPaid(shared, record)) return 'partially_paid'
  const sub = isOfframpRequest(shared, record) ? record.offrampState?.subStatus : undefined
  if (sub === 'failed' || sub === 'bounced') return 'failed'
  if (sub && sub !== 'fiat_sent') return 'processing'
  return 'paid'
}

/** The v1 status body (also the core of v2). */
export function statusV1(shared: Shared, record: RequestRecord) {
  return {
    hasBeenPaid: hasBeenPaid(shared, record),
    paymentReference: record.paymentReference,
    requestId: record.requestId,
    isListening: record.isListening,
    txHash: record.payments.at(-1)?.txHash ?? null,
  }
}

const usdOf = (shared: Shared, world: World, currency: string, units: bigint, decimals: number) => {
  const value = shared.conversion.usdValue(world, currency, units, decimals)
  return value === null ? null : formatWadFixed(value, 2)
}

function conversionFields(shared: Shared, world: World, record: RequestRecord) {
  const invoice = shared.currencies.byId(record.invoiceCurrency)!
  const expected = expectedUnits(shared, record)
  const paid = paidUnits(record)
  const remaining = expected > paid ? expected - paid : 0n
  const market = shared.conversion.rate(world, record.paymentCurrency, record.invoiceCurrency)
  const fully = isFullyPaid(shared, record)
  const single = record.payments.length === 1 ? record.payments[0]! : null
  const paymentsUsd = record.payments.map((p) => (p.amountInUsd === null ? null : toWad(p.amountInUsd)))
  const paidUsd = paymentsUsd.every((v) => v !== null)
    ? formatWadFixed(
        paymentsUsd.reduce<bigint>((s, v) => s + v!, 0n),
        2,
      )
    : null
  return {
    amountInUsd:
      fully && paidUsd !== null ? paidUsd : usdOf(shared, world, invoice.id, expected, invoice.decimals),
    conversionRate:
      record.payments.length === 0
        ? market === null
          ? null
          : formatWad(market, 12)
        : fully && single
          ? single.conversionRate
          : null,
    rateSource: 'chainlink',
    conversionBreakdown:
      record.payments.length === 0
        ? null
        : {
            paidAmount: fromBaseUnits(paid, invoice.decimals),
            paidAmountInUsd: paidUsd,
            remainingAmount: fromBaseUnits(remaining, invoice.decimals),
            remainingAmountInUsd: usdOf(shared, world, invoice.id, remaining, invoice.decimals),
            currentMarketRate: fully || market === null ? null : formatWad(market, 12),
            currentMarketRateSource: fully ? null : 'chainlink',
            payments: record.payments.map((p) => ({
              amount: p.amount,
              amountInUsd: p.amountInUsd,
              conversionRate: p.conversionRate,
              rateSource: 'chainlink',
              timestamp: p.timestamp,
            })),
          },
  }
}

function fees(shared: Shared, record: RequestRecord) {
  if (record.payments.length === 0) return []
  const paidIn = shared.currencies.byId(record.paymentCurrency)!
  const gas = record.payments.reduce((s, p) => s + toWad(p.gasFee), 0n)
  const platform = record.payments.reduce((s, p) => s + BigInt(p.feeAmountRaw), 0n)
  return [
    ...(platform > 0n
      ? [
          {
            type: 'platform',
            provider: 'request-network',
            amount: fromBaseUnits(platform, paidIn.decimals),
            currency: paidIn.symbol,
          },
        ]
      : []),
    {
      type: 'gas',
      provider: record.network,
      amount: formatWad(gas),
      currency: record.network === 'tron' ? 'TRX' : 'ETH',
    },
  ]
}

/** The v2 status body: the V2 document's fields the sandbox knows, and the DOCS' amount fields. */
export function statusV2(shared: Shared, world: World, record: RequestRecord) {
  const invoice = shared.currencies.byId(record.invoiceCurrency)!
  const expected = expectedUnits(shared, record)
  const paid = paidUnits(record)
  // Built field by field on the v1 body, in the order the service sends them: a literal of conditional spreads
  // made an object per optional field and cost a fifth of every GET /v2/request/{id}.
  const body: Record<string, unknown> = statusV1(shared, record)
  body.status = statusOf(shared, record)
  if (record.offrampState) body.subStatus = record.offrampState.subStatus
  body.isCryptoToFiatAvailable = record.isCryptoToFiatAvailable
  body.isRecurrenceStopped = record.isRecurrenceStopped
  if (record.recurrence) body.recurrence = record.recurrence
  if (record.originalRequestId) body.originalRequestId = record.originalRequestId
  if (record.originalRequestPaymentReference)
    body.originalRequestPaymentReference = record.originalRequestPaymentReference
  body.customerInfo = record.customerInfo
  body.reference = record.reference
  body.requestAmount = record.amount
  body.invoiceCurrency = record.invoiceCurrency
  body.paymentCurrency = record.paymentCurrency
  body.paidAmount = fromBaseUnits(paid, invoice.decimals)
  body.remainingAmount = fromBaseUnits(expected > paid ? expected - paid : 0n, invoice.decimals)
  if (paid > expected) body.excessAmount = fromBaseUnits(paid - expected, invoice.decimals)
  // reconciliation fields (api-features/query-requests.mdx): what reached the payee in the payment currency, who paid
  // (the token holder, a smart account's address when one paid) and the wallet that signed, how it was detected
  const last = record.payments.at(-1)
  const paidIn = shared.currencies.byId(record.paymentCurrency)!
  body.receivedAmount = fromBaseUnits(
    record.payments.reduce((s, p) => s + BigInt(p.paidAmountRaw), 0n),
    paidIn.decimals,
  )
  body.payee = record.paymentAddress
  body.payerAddress = last ? (last.payer ?? last.from) : null
  body.payerEoaAddress = last?.from ?? null
  body.detectionSource = last ? 'request-network' : null
  body.note = null
  body.payments = record.payments.map((p) => ({
    id: p.id,
    amount: p.amount,
    paidAmount: p.paidAmount,
    txHash: p.txHash,
    timestamp: p.timestamp,
    fee: p.feeAmount,
    feeAddress: p.feeAddress,
    network: p.network,
    payer: p.from,
    type: p.type,
    ...(p.conversionRate ? { conversionRate: p.conversionRate } : {}),
  }))
  if (isConversion(record)) Object.assign(body, conversionFields(shared, world, record))
  else body.amountInUsd = usdOf(shared, world, invoice.id, expected, invoice.decimals)
  body.fees = fees(shared, record)
  return body
}
