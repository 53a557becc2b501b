// Webhook payloads of the payment events (api-contract §5), built from a request and one detected payment.
// Amounts are written as ethers' formatUnits writes them ("100.0"), as the documented examples show.
import { fromBaseUnits, toBaseUnits } from '../../contract/amounts.ts'
import { divWad, formatWad, toWad, WAD } from '../../contract/decimal.ts'
import type { Services } from '../services.ts'
import { isConversion, paidUnits } from './model.ts'
import type { DetectedPayment, RequestRecord } from './schema.ts'

type Shared = Services<'currencies'>

/** A human amount with at least one decimal, as ethers v5 formatUnits writes it ("100" -> "100.0"). */
export function ethersAmount(human: string): string {
  return human.includes('.') ? human : `${human}.0`
}

/** The fields every payment event of a request carries. */
export function requestEventFields(record: RequestRecord) {
  return {
    requestId: record.requestId,
    requestID: record.requestId,
    paymentReference: record.paymentReference,
  }
}

/** The fees of one payment as webhooks list them (`network` for gas, `platform` for the proxy fee). */
function eventFees(shared: Shared, record: RequestRecord, payment: DetectedPayment) {
  const paymentCurrency = shared.currencies.byId(record.paymentCurrency)!
  const fees: { type: string; amount: string; currency: string }[] = [
    { type: 'network', amount: ethersAmount(payment.gasFee), currency: 'ETH' },
  ]
  if (BigInt(payment.feeAmountRaw) > 0n)
    fees.push({ type: 'platform', amount: ethersAmount(payment.feeAmount), currency: paymentCurrency.symbol })
  return fees
}

/** Payload of `payment.confirmed` / `payment.partial` for `payment` (already recorded on `record`). */
export function paymentEventPayload(
  shared: Shared,
  record: RequestRecord,
  payment: DetectedPayment,
  options: { isCryptoToFiat?: boolean; subStatus?: string } = {},
): Record<string, unknown> {
  const invoice = shared.currencies.byId(record.invoiceCurrency)!
  const paymentCurrency = shared.currencies.byId(record.paymentCurrency)!
  const conversion = isConversion(record) && payment.conversionRate !== null
  const paid = paidUnits(record)
  const expected = toBaseUnits(record.amount, invoice.decimals)
  return {
    ...requestEventFields(record),
    explorer: `https://scan.request.network/request/${record.requestId}`,
    amount: ethersAmount(payment.amount),
    totalAmountPaid: ethersAmount(fromBaseUnits(paid, invoice.decimals)),
    expectedAmount: ethersAmount(record.amount),
    // release-notes/request-api.mdx (2026-Q1 • Accounting): "excess amount fields on the Payment model and webhook
    // payloads", `excessAmount` "when a payer overpays" (api-features/query-requests.mdx names it): only then
    ...(paid > expected
      ? { excessAmount: ethersAmount(fromBaseUnits(paid - expected, invoice.decimals)) }
      : {}),
    timestamp: payment.timestamp,
    txHash: payment.txHash,
    // the account the tokens came from, and the wallet that signed (they differ when a smart account paid)
    payerAddress: payment.payer ?? payment.from,
    payerEoaAddress: payment.from,
    payee: record.paymentAddress,
    network: record.network,
    currency: invoice.symbol,
    paymentCurrency: paymentCurrency.symbol,
    isCryptoToFiat: options.isCryptoToFiat ?? false,
    subStatus: options.subStatus ?? '',
    paymentProcessor: options.isCryptoToFiat ? 'request-tech' : 'request-network',
    fees: eventFees(shared, record, payment),
    ...(conversion
      ? {
          conversionRate: payment.conversionRate,
          rateProvider: 'chainlink',
          // Source is the invoice side (1 invoice unit = x paid units), destination the paid side.
          conversionRateSource: formatWad(divWad(WAD, toWad(payment.conversionRate!)), 12),
          conversionRateDestination: payment.conversionRate,
          convertedAmountSource: ethersAmount(payment.amount),
          convertedAmountDestination: ethersAmount(payment.paidAmount),
        }
      : {}),
    ...(record.customerInfo ? { customerInfo: record.customerInfo } : {}),
    ...(record.reference ? { reference: record.reference } : {}),
    // requests made with a client ID (a checkout widget): the app records the sale by its clientId
    ...(record.clientId ? { clientId: record.clientId, origin: record.origin } : {}),
  }
}
