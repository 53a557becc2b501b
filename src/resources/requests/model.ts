// Differences from the real service: requestId is `01` + a 32-byte hash (SHA-256, native and fast) of the
// sandbox's own canonical text of the request; the real one is keccak256 of a signed Request Network action
// stored on IPFS: same shape, not the same value. The payment reference follows Request Network's formula exactly.
// Amounts of a request are counted in its invoice currency: conversion payments count for what their
// conversion event says.
import { hash } from 'node:crypto'
import { toBaseUnits } from '../../contract/amounts.ts'
import { checksum } from '../../contract/checksum.ts'
import { flatHex64 } from '../../contract/flat-id.ts'
import { keccakUtf8Bytes } from '../../contract/keccak.ts'
import { parseDateOrTimestamp } from '../../contract/primitives.ts'
import { OneFieldError } from '../../contract/sandbox-error.ts'
import { addressOnNetwork, TRON_CHECKSUM_MESSAGE, TRON_NETWORK, tronChecksumFails } from '../../tron/index.ts'
import { destinationForClientId } from '../payee-destinations/index.ts'
import type { Services, Uses } from '../services.ts'
import { RequestNotFoundError } from './errors.ts'
import type { CreateRequestBody, RequestRecord } from './schema.ts'
import { requestState } from './tables.ts'

type Ctx = Uses<'currencies' | 'ids' | 'offrampAddress' | 'paymentReferences'>
type Shared = Services<'currencies' | 'ids' | 'offrampAddress' | 'paymentReferences'>

/** Request Network's payment reference: last 8 bytes of keccak256(lower(requestId + salt + address)). */
export function paymentReferenceOf(requestId: string, salt: string, address: string): `0x${string}` {
  return flatHex64(keccakUtf8Bytes(`${requestId}${salt}${address}`.toLowerCase()), 24)
}

/** where a request id's `01` goes */
const START = /^/

function startOfUtcDay(date: Date): number {
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate())
}

/**
 * Checks what zod cannot (currencies exist and fit their role, payee rules, start date) and stores the request.
 * Synchronous: it waits for nothing, and a create answered at once goes through the pipeline with no promise.
 */
export function createRequest(ctx: Ctx, body: CreateRequestBody): RequestRecord {
  const { world } = ctx
  const invoice = ctx.currencies.byId(body.invoiceCurrency)
  if (!invoice) throw new OneFieldError('invoiceCurrency', `Currency ${body.invoiceCurrency} not found`)
  const payment = ctx.currencies.byId(body.paymentCurrency)
  if (!payment) throw new OneFieldError('paymentCurrency', `Currency ${body.paymentCurrency} not found`)
  if (payment.type === 'ISO4217') {
    throw new OneFieldError(
      'paymentCurrency',
      `${payment.id} is a fiat currency and cannot be a payment currency`,
    )
  }
  const cryptoToFiat = body.isCryptoToFiatAvailable === true
  const grant = ctx.caller?.via === 'client-id' ? ctx.caller.clientId : undefined
  // DOCS: a client-ID call may omit payee; the payee destination it stands for is paid
  const payeeInput =
    body.payee ?? (grant && !cryptoToFiat ? destinationForClientId(world, grant)?.payee : undefined)
  if (!payeeInput && !cryptoToFiat) {
    throw new OneFieldError('payee', 'payee is required unless isCryptoToFiatAvailable is true')
  }
  if (body.recurrence) {
    const start = parseDateOrTimestamp(body.recurrence.startDate)!
    if (startOfUtcDay(start) < startOfUtcDay(world.clock.now())) {
      throw new OneFieldError('recurrence.startDate', 'Start date cannot be in the past')
    }
  }
  // Tron requests take `T…` addresses (an EVM form is converted); EVM ones refuse them
  const onNetwork = (address: string, field: string) => {
    const value = addressOnNetwork(address, payment.network, checksum)
    if (!value)
      throw new OneFieldError(
        field,
        payment.network !== TRON_NETWORK
          ? 'Invalid Ethereum address'
          : tronChecksumFails(address)
            ? TRON_CHECKSUM_MESSAGE
            : 'Invalid TRON address (T…)',
      )
    return value
  }
  if (payment.network === TRON_NETWORK) {
    if (cryptoToFiat)
      throw new OneFieldError('isCryptoToFiatAvailable', 'Crypto-to-fiat is not available on TRON networks')
    // DOCS: conversion payments are supported on Tron (resources/supported-chains-and-currencies.mdx), invoiced in
    // fiat; Tron has no conversion proxy, so /pay prices them off chain (tron-conversion.ts)
    const fiat =
      invoice.type === 'ISO4217' && ctx.currencies.conversionTargets(invoice.id).includes(payment.id)
    if (invoice.id !== payment.id && !fiat)
      throw new OneFieldError(
        'invoiceCurrency',
        `TRON requests are invoiced in fiat (USD, EUR, GBP, CNY, JPY) or in their payment currency: ${invoice.id} cannot be paid in ${payment.id}`,
      )
  }
  const payee = payeeInput ? onNetwork(payeeInput, 'payee') : null
  const paymentAddress = payee ?? ctx.offrampAddress
  const salt = ctx.ids.hex(8)
  const createdAt = world.clock.nowIso()
  // no timestamp in the hash: under --seed the salt sequence repeats, and so do the ids. The fields joined by a
  // character none of them can hold (a decimal amount, currency ids, hex or base58 addresses, a hex salt)
  const canonical = `${body.amount}|${invoice.id}|${paymentAddress.toLowerCase()}|${body.payer?.toLowerCase() ?? ''}|${payment.id}|${salt}`
  // the digest as hex with its prefix put in by a replace: one flat string, no Buffer in between (`'01' + hex` would
  // be kept as two pieces; docs/decisions/2026-12-06-synchronous-call-path.md)
  const requestId = hash('sha256', canonical).replace(START, '01')
  const record = requestState(world).requests.add({
    requestId,
    clientId: grant?.clientId ?? null,
    origin: grant?.origin ?? null,
    orchestratorFees: [],
    paymentReference: paymentReferenceOf(requestId, salt, paymentAddress),
    salt,
    amount: body.amount,
    invoiceCurrency: invoice.id,
    paymentCurrency: payment.id,
    network: payment.network,
    payee,
    paymentAddress,
    payer: body.payer ? onNetwork(body.payer, 'payer') : null,
    recurrence: body.recurrence ?? null,
    isCryptoToFiatAvailable: cryptoToFiat,
    customerInfo: body.customerInfo ?? null,
    reference: body.reference ?? null,
    originalRequestId: body.originalRequestId ?? null,
    originalRequestPaymentReference: body.originalRequestPaymentReference ?? null,
    isListening: false,
    payRequestedAt: null,
    isRecurrenceStopped: false,
    createdAt,
    payments: [],
    offramp: null,
    offrampState: null,
  })
  requestState(world).requestsByReference.set(record.paymentReference, record.requestId)
  // Payments are matched across tenants by reference: every request must be in this index.
  ctx.paymentReferences.add(record.paymentReference, world, record.requestId)
  return record
}

/** The caller's request with this id, or 404 `Request not found`. */
export function getRequest(ctx: Ctx, requestId: string): RequestRecord {
  const record = requestState(ctx.world).requests.get(requestId.toLowerCase())
  if (!record) throw new RequestNotFoundError()
  return record
}

/** The caller's request with this payment reference, or 404 `Request not found`. */
export function getRequestByReference(ctx: Ctx, paymentReference: string): RequestRecord {
  const id = requestState(ctx.world).requestsByReference.get(paymentReference.toLowerCase())
  if (!id) throw new RequestNotFoundError()
  return getRequest(ctx, id)
}

/** Marks a request as listened to (the service starts listening on its reference at the first /pay call). */
export async function startListening(ctx: Ctx, record: RequestRecord): Promise<void> {
  const listening = !isFullyPaid(ctx, record)
  if (record.payRequestedAt && record.isListening === listening) return
  await requestState(ctx.world).requests.update(record.requestId, (draft) => {
    draft.payRequestedAt ??= ctx.world.clock.now().toISOString()
    draft.isListening = listening
  })
}

/** Sets `isRecurrenceStopped` on one request (a recurring payout's original, when the payout is cancelled). */
export async function setRecurrenceStopped(ctx: Ctx, requestId: string, stopped: boolean): Promise<void> {
  const record = getRequest(ctx, requestId)
  await requestState(ctx.world).requests.update(record.requestId, (draft) => {
    draft.isRecurrenceStopped = stopped
  })
}

/** Whether the request is invoiced in one currency and paid in another (through a conversion proxy). */
export function isConversion(record: RequestRecord): boolean {
  return record.invoiceCurrency !== record.paymentCurrency
}

/** Whether detected payments cover the expected amount. */
export function isFullyPaid(shared: Shared, record: RequestRecord): boolean {
  return record.payments.length > 0 && remainingUnits(shared, record) <= 0n
}

/** Sum of detected payments, in the invoice currency's base units. */
export function paidUnits(record: RequestRecord): bigint {
  return record.payments.reduce((sum, p) => sum + BigInt(p.amountRaw), 0n)
}

/** Expected minus paid, in the invoice currency's base units (negative on overpayment). */
export function remainingUnits(shared: Shared, record: RequestRecord): bigint {
  return expectedUnits(shared, record) - paidUnits(record)
}

/** The expected amount in the invoice currency's base units. */
export function expectedUnits(shared: Shared, record: RequestRecord): bigint {
  const invoice = shared.currencies.byId(record.invoiceCurrency)!
  return toBaseUnits(record.amount, invoice.decimals)
}
