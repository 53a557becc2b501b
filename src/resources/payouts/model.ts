// Differences from the real service: a recurring payout runs only on a network the sandbox runs live (its relayer
// needs the chain), and only with invoiceCurrency = paymentCurrency (the signed permit fixes a token amount).
// MONTHLY and YEARLY are fixed periods of 30 and 365 days, because the proxy takes one period in seconds.
// The state before the permit signature is called `pending`. The permit deadline is the last due date plus
// 20 years, so that other tenants moving the shared chain's time forward (at most --max-clock-advance, 15 years at
// the most) do not expire it.
import { type Address, getAddress, isAddressEqual, maxUint128 } from 'viem'
import { RECURRING_PROXY, SCHEDULE_PERMIT_TYPES, schedulePermitDomain } from '../../chain/index.ts'
import { feeUnits, toBaseUnits } from '../../contract/amounts.ts'
import { parseDateOrTimestamp } from '../../contract/primitives.ts'
import { OneFieldError } from '../../contract/sandbox-error.ts'
import { isTronAddress } from '../../tron/index.ts'
import { approveTransaction, buildPayment, NO_FEE_ADDRESS, type PayServiceNames } from '../pay/index.ts'
import { createRequest, requestState } from '../requests/index.ts'
import type { Uses } from '../services.ts'
import { RecurringNotAvailableError } from './errors.ts'
import { PERIOD_SECONDS } from './execution.ts'
import type { PayoutBody, RecurringPayoutRecord } from './schema.ts'
import { payoutState } from './tables.ts'

type Ctx = Uses<PayServiceNames | 'relayers'>

/** Grace after the last due date before the signed permit expires (see the note above). */
const DEADLINE_GRACE_SECONDS = 20 * 365 * 86_400

/** `POST /v2/payouts` without recurrence: a request plus its payment calldata, as the pay endpoint builds it. */
export async function createOneTimePayout(ctx: Ctx, body: PayoutBody) {
  const wallet = body.payerWallet ?? body.payerAddress
  const record = await createRequest(ctx, {
    amount: body.amount,
    invoiceCurrency: body.invoiceCurrency,
    paymentCurrency: body.paymentCurrency,
    payee: body.payee,
    ...(wallet ? { payer: wallet } : {}),
    ...(body.customerInfo ? { customerInfo: body.customerInfo } : {}),
    ...(body.reference ? { reference: body.reference } : {}),
  })
  try {
    const payment = await buildPayment(ctx, record, {
      ...(wallet ? { wallet } : {}),
      ...(body.feePercentage ? { feePercentage: body.feePercentage, feeAddress: body.feeAddress! } : {}),
    })
    return { requestId: record.requestId, paymentReference: record.paymentReference, ...payment }
  } catch (error) {
    // No calldata, no payout: the request the call created must not stay behind.
    requestState(ctx.world).requests.delete(record.requestId)
    requestState(ctx.world).requestsByReference.delete(record.paymentReference)
    throw error
  }
}

/** What every still-running payout of `payer` on this proxy and token will pull: the allowance it already needs. */
function committedAllowance(ctx: Ctx, payer: Address, network: string, token: Address): bigint {
  let total = 0n
  for (const p of payoutState(ctx.world).recurringPayouts.all()) {
    if (p.status !== 'active' && p.status !== 'paused') continue
    if (p.network !== network || !isAddressEqual(p.payer as Address, payer)) continue
    if (!isAddressEqual(p.permit.token as Address, token)) continue
    const perPayment = BigInt(p.permit.amount) + BigInt(p.permit.feeAmount) + BigInt(p.permit.relayerFee)
    total += BigInt(p.totalPayments - p.processedPayments) * perPayment
  }
  return total
}

/** Checks what the recurring flow needs beyond the request rules; returns the live chain's proxy and token. */
function recurringTarget(ctx: Ctx, body: PayoutBody) {
  const currency = ctx.currencies.byId(body.paymentCurrency)
  if (!currency) return null // createRequest answers the unknown currency
  if (currency.type !== 'ERC20') {
    throw new OneFieldError('paymentCurrency', 'Recurring payments are only available for ERC-20 tokens')
  }
  const invoice = ctx.currencies.byId(body.invoiceCurrency)
  if (!invoice) return null
  if (invoice.id !== currency.id) {
    throw new OneFieldError(
      'invoiceCurrency',
      'Recurring payouts must be invoiced in their payment currency (no conversion for recurring payments)',
    )
  }
  const chain = ctx.chains.get(currency.network)
  const proxy = chain?.contracts[RECURRING_PROXY]
  if (!chain || !proxy || !ctx.relayers.has(currency.network)) {
    throw new RecurringNotAvailableError(
      chain
        ? `Recurring payments are not available on ${currency.network}: no recurring payment proxy is published there`
        : `Recurring payments on ${currency.network} need its chain: start the sandbox with --networks ${currency.network}`,
    )
  }
  return { chain, proxy, token: getAddress(chain.tokens[currency.id] ?? currency.address!), currency }
}

/** `POST /v2/payouts` with recurrence: a pending payout, its SchedulePermit and the approval still missing. */
export async function createRecurringPayout(ctx: Ctx, body: PayoutBody) {
  const recurrence = body.recurrence!
  // the recurring proxy is an EVM contract of the sandbox: no TRON schedule (see ARCHITECTURE.md)
  if (ctx.currencies.byId(body.paymentCurrency)?.network === 'tron' || isTronAddress(body.payee))
    throw new OneFieldError(
      'paymentCurrency',
      'Recurring payouts are not available on TRON networks in the sandbox',
    )
  if (body.feeAddress && isTronAddress(body.feeAddress))
    throw new OneFieldError('feeAddress', 'Invalid Ethereum address')
  const target = recurringTarget(ctx, body)
  const amount = target ? toBaseUnits(body.amount, target.currency.decimals) : 0n
  if (target && (amount === 0n || amount > maxUint128)) {
    throw new OneFieldError('amount', `amount does not fit ${target.currency.id} (1 base unit to 2^128-1)`)
  }
  const firstPayment = Math.floor(parseDateOrTimestamp(recurrence.startDate)!.getTime() / 1000)
  if (firstPayment > 2 ** 32 - 1) {
    throw new OneFieldError('recurrence.startDate', 'Start date is too far in the future')
  }
  const parent = await createRequest(ctx, {
    amount: body.amount,
    invoiceCurrency: body.invoiceCurrency,
    paymentCurrency: body.paymentCurrency,
    payee: body.payee,
    payer: recurrence.payer,
    recurrence: { startDate: recurrence.startDate, frequency: recurrence.frequency },
    ...(body.customerInfo ? { customerInfo: body.customerInfo } : {}),
    ...(body.reference ? { reference: body.reference } : {}),
  })
  const { chain, proxy, token, currency } = target!
  const payer = getAddress(recurrence.payer)
  const fee = feeUnits(amount, body.feePercentage)
  const period = PERIOD_SECONDS[recurrence.frequency]
  const permit = {
    subscriber: payer,
    token,
    recipient: getAddress(body.payee),
    feeAddress: body.feeAddress ? getAddress(body.feeAddress) : NO_FEE_ADDRESS,
    amount: amount.toString(),
    feeAmount: fee.toString(),
    relayerFee: '0',
    periodSeconds: period,
    firstPayment,
    totalPayments: recurrence.totalPayments,
    nonce: `0x${ctx.ids.hex(32)}` as const,
    deadline: firstPayment + recurrence.totalPayments * period + DEADLINE_GRACE_SECONDS,
    strictOrder: true,
  }
  const domain = schedulePermitDomain(chain.chainId, proxy)
  const existing = committedAllowance(ctx, payer, currency.network, token)
  const needed = (amount + fee) * BigInt(recurrence.totalPayments) + existing
  const current = await chain.allowance(token, payer, proxy)
  const additional = needed > current ? needed - current : 0n
  const id = ctx.ids.ulid(ctx.world.clock.now().getTime())
  await payoutState(ctx.world).recurringPayouts.insert({
    id,
    status: 'pending',
    network: currency.network,
    invoiceCurrency: parent.invoiceCurrency,
    paymentCurrency: currency.id,
    amount: body.amount,
    payee: permit.recipient,
    payer,
    frequency: recurrence.frequency,
    totalPayments: recurrence.totalPayments,
    processedPayments: 0,
    originalRequestId: parent.requestId,
    originalRequestPaymentReference: parent.paymentReference,
    domain,
    permit,
    signature: null,
    failureCount: 0,
    failureReason: null,
    lastPaymentDate: null,
    nextPaymentDate: null,
    requests: [],
    payments: [],
    timerId: null,
    createdAt: ctx.world.clock.now().toISOString(),
  } satisfies RecurringPayoutRecord)
  const transactions = additional > 0n ? [approveTransaction(token, proxy, needed)] : []
  return {
    id,
    // the V2 schema requires requestId: the parent request's, which the payout's child requests point to
    requestId: parent.requestId,
    paymentReference: parent.paymentReference,
    transactions,
    recurringPaymentPermit: { domain, types: SCHEDULE_PERMIT_TYPES, values: permit },
    metadata: {
      stepsRequired: transactions.length + 1,
      totalNeededAllowance: needed.toString(),
      currentAllowance: current.toString(),
      additionalAllowanceNeeded: additional.toString(),
      existingPaymentsAmount: existing.toString(),
    },
  }
}
