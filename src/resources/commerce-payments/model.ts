// Commerce payments: a request (createRequest) whose funds the payer holds in the sandbox's escrow until the
// operator captures them (paid to the merchant through ERC20FeeProxy with the request's reference, so detection
// marks the request paid) or voids them. The escrow is the truth: the status route reads the hold from the chain;
// the transitions (and their webhooks) come from the escrow's events, applied once each (applyEscrowEvents).
import { type Address, encodeFunctionData, getAddress, type Hex } from 'viem'
import {
  COMMERCE_ESCROW,
  chainTime,
  commerceEscrowAbi,
  type EscrowEvent,
  type EscrowHold,
  erc20Abi,
  type LiveChain,
  readEscrowHold,
  revertReason,
} from '../../chain/index.ts'
import { bigNumberJson, fromBaseUnits, toBaseUnits } from '../../contract/amounts.ts'
import type { EventType } from '../../contract/events.ts'
import { keccakHex } from '../../contract/keccak.ts'
import { waitFor } from '../../contract/wait.ts'
import type { World } from '../../contract/world.ts'
import { clientIdState } from '../client-ids/index.ts'
import { createRequest } from '../requests/index.ts'
import type { Services, Uses } from '../services.ts'
import { CommercePaymentNotFoundError, CommerceStateError, CommerceTermsError } from './errors.ts'
import type {
  AuthorizeCalldataBody,
  CaptureBody,
  CommercePaymentRecord,
  CommerceStatus,
  CommerceStatusResponse,
  CommerceTransition,
  RefundBody,
} from './schema.ts'
import { commercePaymentState } from './state.ts'

export type CommerceCtx = Uses<
  'currencies' | 'ids' | 'offrampAddress' | 'paymentReferences' | 'chains' | 'operator' | 'events'
>
type Shared = Services<'chains' | 'events' | 'paymentReferences' | 'worlds' | 'log'>

/** Defaults of the expiries, in seconds from the authorization calldata (the page documents none). */
export const DEFAULT_EXPIRIES = { preApproval: 3600, authorization: 7 * 86400, refund: 30 * 86400 } as const

interface ServiceTransaction {
  to: Address
  data: Hex
  value: { type: 'BigNumber'; hex: string }
}

const tx = (to: Address, data: Hex): ServiceTransaction => ({ to, data, value: bigNumberJson(0n) })
const approve = (token: Address, spender: Address, amount: bigint) =>
  tx(token, encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] }))
const iso = (seconds: number) => new Date(seconds * 1000).toISOString()

/** Amounts of a hold, as the chain or the applied events give them. */
export interface HoldAmounts {
  authorized: bigint
  capturable: bigint
  captured: bigint
  refunded: bigint
  voided: boolean
  reclaimed: boolean
}

/** The lifecycle state of a hold (pure): the page's Authorized → Captured/Voided → Refunded, with partial steps. */
export function statusOf(
  hold: HoldAmounts | null,
  nowSeconds: number,
  preApprovalExpiry: number,
): CommerceStatus {
  if (!hold || hold.authorized === 0n) return nowSeconds >= preApprovalExpiry ? 'expired' : 'pending'
  if (hold.refunded > 0n) return hold.refunded >= hold.captured ? 'refunded' : 'partially_refunded'
  if (hold.captured > 0n) return hold.capturable > 0n ? 'partially_captured' : 'captured'
  if (hold.voided) return 'voided'
  if (hold.reclaimed) return 'reclaimed'
  return 'authorized'
}

function amountsOfHold(hold: EscrowHold | null): HoldAmounts | null {
  if (!hold || /^0x0+$/.test(hold.payer)) return null
  return {
    authorized: hold.authorizedAmount,
    capturable: hold.capturableAmount,
    captured: hold.capturedAmount,
    refunded: hold.refundedAmount,
    voided: hold.voided,
    reclaimed: hold.reclaimed,
  }
}

function amountsOfTransitions(record: CommercePaymentRecord): HoldAmounts {
  const units = (t: CommerceTransition) => toBaseUnits(t.amount, record.decimals)
  const sum = (type: CommerceTransition['type']) =>
    record.transitions.filter((t) => t.type === type).reduce((n, t) => n + units(t), 0n)
  const authorized = sum('authorize')
  const captured = sum('capture')
  const returned = sum('void') + sum('reclaim')
  return {
    authorized,
    capturable: authorized - captured - returned,
    captured,
    refunded: sum('refund'),
    voided: record.transitions.some((t) => t.type === 'void'),
    reclaimed: record.transitions.some((t) => t.type === 'reclaim'),
  }
}

function liveChainFor(ctx: Pick<CommerceCtx, 'chains'>, network: string): LiveChain {
  const chain = ctx.chains.get(network)
  if (!chain?.contracts[COMMERCE_ESCROW])
    throw new CommerceTermsError(
      `Commerce payments need a live ${network} chain with the escrow; it is not running`,
    )
  return chain
}

/** The caller's commerce payment, or 404. */
export function getCommercePayment(
  ctx: Pick<CommerceCtx, 'world'>,
  requestId: string,
): CommercePaymentRecord {
  const record = commercePaymentState(ctx.world).commercePayments.get(requestId.toLowerCase())
  if (!record) throw new CommercePaymentNotFoundError()
  return record
}

/** `POST /v2/commerce-payments/authorize/calldata`: creates the request and the payer's authorization calldata. */
export async function authorizeCalldata(ctx: CommerceCtx, body: AuthorizeCalldataBody) {
  const currency = ctx.currencies.byId(body.paymentCurrency)
  if (!currency) throw new CommerceTermsError(`Currency ${body.paymentCurrency} not found`)
  if (currency.type !== 'ERC20' || !currency.address || !currency.network)
    throw new CommerceTermsError(`${currency.id} is not an ERC-20 token: the escrow holds ERC-20 tokens only`)
  const chain = liveChainFor(ctx, currency.network)
  if (!ctx.operator) throw new CommerceTermsError('Commerce payments need a live chain')
  const escrow = chain.contracts[COMMERCE_ESCROW]!
  const amount = toBaseUnits(body.amount, currency.decimals)
  const maxAmount = body.maxAmount ? toBaseUnits(body.maxAmount, currency.decimals) : amount
  if (amount === 0n) throw new CommerceTermsError(`amount is below the smallest unit of ${currency.id}`)
  if (maxAmount < amount) throw new CommerceTermsError('maxAmount must be at least amount')

  const grant = ctx.caller?.via === 'client-id' ? ctx.caller.clientId : undefined
  const client = grant ? clientIdState(ctx.world).clientIds.get(grant.id) : undefined
  // the client ID's defaults override what the call passes (client-id-management.mdx); a default never makes the
  // terms inconsistent (the pre-approval window fits in the authorization one, the refund window outlasts it)
  const authorization =
    client?.defaultAuthorizationExpiry ?? body.authorizationExpiry ?? DEFAULT_EXPIRIES.authorization
  const preApproval =
    client?.defaultPreApprovalExpiry ??
    body.preApprovalExpiry ??
    Math.min(DEFAULT_EXPIRIES.preApproval, authorization)
  const refund = body.refundExpiry ?? Math.max(DEFAULT_EXPIRIES.refund, authorization)
  if (authorization < preApproval)
    throw new CommerceTermsError('authorizationExpiry must be at least preApprovalExpiry')
  if (refund < authorization)
    throw new CommerceTermsError('refundExpiry must be at least authorizationExpiry')
  // deadlines count from the later of the tenant clock and the shared chain's time
  const base = Math.max(Math.floor(ctx.world.clock.now().getTime() / 1000), await chainTime(chain))
  const operator = getAddress(client?.operatorWalletAddress ?? ctx.operator.address)
  const payer = getAddress(body.payer)

  const request = await createRequest(ctx, {
    amount: body.amount,
    invoiceCurrency: currency.id,
    paymentCurrency: currency.id,
    payer,
    ...(body.payee ? { payee: body.payee } : {}),
    ...(body.reference ? { reference: body.reference } : {}),
  })
  const merchant = getAddress(request.paymentAddress)
  const token = getAddress(currency.address)
  const now = ctx.world.clock.now().toISOString()
  const record: CommercePaymentRecord = {
    requestId: request.requestId,
    paymentReference: request.paymentReference,
    network: chain.network,
    chainId: chain.chainId,
    escrowAddress: escrow,
    paymentCurrency: currency.id,
    tokenAddress: token,
    decimals: currency.decimals,
    payer,
    merchant,
    operator,
    amount: amount.toString(),
    maxAmount: maxAmount.toString(),
    preApprovalExpiry: base + preApproval,
    authorizationExpiry: base + authorization,
    refundExpiry: base + refund,
    maxFeeBps: body.maxFeeBps ?? 0,
    feeReceiver: body.feeReceiver ? getAddress(body.feeReceiver) : null,
    clientId: grant?.clientId ?? null,
    status: 'pending',
    transitions: [],
    createdAt: now,
    updatedAt: now,
  }
  commercePaymentState(ctx.world).commercePayments.add(record)

  const [balance, allowance] = await Promise.all([
    chain.balanceOf(token, payer),
    chain.allowance(token, payer, escrow),
  ])
  const needsApproval = allowance < amount
  return {
    requestId: record.requestId,
    paymentReference: record.paymentReference,
    transactions: [
      ...(needsApproval ? [approve(token, escrow, amount)] : []),
      tx(escrow, authorizeData(record)),
    ],
    metadata: { ...terms(record), needsApproval, hasEnoughBalance: balance >= amount, sender: payer },
  }
}

function authorizeData(record: CommercePaymentRecord): Hex {
  return encodeFunctionData({
    abi: commerceEscrowAbi,
    functionName: 'authorizePayment',
    args: authorizeArgs(record),
  } as never)
}

function terms(record: CommercePaymentRecord) {
  const human = (units: string) => fromBaseUnits(BigInt(units), record.decimals)
  return {
    network: record.network,
    chainId: record.chainId,
    escrowAddress: record.escrowAddress,
    paymentCurrency: record.paymentCurrency,
    tokenAddress: record.tokenAddress,
    payer: record.payer,
    merchant: record.merchant,
    operator: record.operator,
    amount: human(record.amount),
    maxAmount: human(record.maxAmount),
    preApprovalExpiry: iso(record.preApprovalExpiry),
    authorizationExpiry: iso(record.authorizationExpiry),
    refundExpiry: iso(record.refundExpiry),
    maxFeeBps: record.maxFeeBps,
    feeReceiver: record.feeReceiver,
  }
}

/** What the chain holds for a payment now, with the time the escrow compares expiries to. */
async function readHold(ctx: Pick<CommerceCtx, 'chains' | 'world'>, record: CommercePaymentRecord) {
  const chain = liveChainFor(ctx, record.network)
  const [hold, time] = await Promise.all([
    readEscrowHold(chain, record.paymentReference as Hex),
    chainTime(chain),
  ])
  const now = Math.max(time, Math.floor(ctx.world.clock.now().getTime() / 1000))
  return { chain, amounts: amountsOfHold(hold), now, time }
}

/** `GET /v2/commerce-payments/{requestId}/status`: the hold as the escrow holds it now. */
export async function commerceStatus(
  ctx: Pick<CommerceCtx, 'chains' | 'world'>,
  requestId: string,
): Promise<CommerceStatusResponse> {
  const record = getCommercePayment(ctx, requestId)
  const { amounts, now } = await readHold(ctx, record)
  return statusBody(record, amounts, now)
}

function statusBody(record: CommercePaymentRecord, amounts: HoldAmounts | null, now: number) {
  const human = (units: bigint) => fromBaseUnits(units, record.decimals)
  const a = amounts ?? { authorized: 0n, capturable: 0n, captured: 0n, refunded: 0n }
  return {
    requestId: record.requestId,
    paymentReference: record.paymentReference,
    status: statusOf(amounts, now, record.preApprovalExpiry),
    ...terms(record),
    authorizedAmount: human(a.authorized),
    capturableAmount: human(a.capturable),
    capturedAmount: human(a.captured),
    refundedAmount: human(a.refunded),
    refundableAmount: human(a.captured - a.refunded),
    transactions: record.transitions,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  }
}

type Action = 'authorize' | 'capture' | 'void' | 'refund'

interface PlannedCall {
  action: Action
  sender: Address
  transactions: ServiceTransaction[]
  /** the escrow call itself (what the API operator sends on execute) */
  call: { functionName: string; args: readonly unknown[] }
  amount: bigint
  feeAmount: bigint
  feeReceiver: Address | null
}

/** Checks a capture against the hold and builds its call (operator sends it). */
async function planCapture(ctx: CommerceCtx, record: CommercePaymentRecord, body: CaptureBody) {
  const { amounts, time } = await readHold(ctx, record)
  if (!amounts) throw new CommerceStateError('Commerce payment is not authorized yet')
  if (amounts.capturable === 0n)
    throw new CommerceStateError(
      `Commerce payment is ${statusOf(amounts, time, record.preApprovalExpiry)}: nothing left to capture`,
    )
  if (time >= record.authorizationExpiry)
    throw new CommerceStateError('Authorization expired: the payment can no longer be captured')
  const amount = body.amount ? toBaseUnits(body.amount, record.decimals) : amounts.capturable
  if (amount === 0n) throw new CommerceTermsError('amount is below the smallest unit of the token')
  if (amount > amounts.capturable)
    throw new CommerceTermsError(
      `amount ${fromBaseUnits(amount, record.decimals)} is above what is held (${fromBaseUnits(amounts.capturable, record.decimals)})`,
    )
  const feeBps = body.feeBps ?? 0
  const feeReceiver = body.feeReceiver ? getAddress(body.feeReceiver) : null
  // the payer authorized a fee bound: the escrow refuses more, or another receiver (even from the operator)
  if (feeBps > record.maxFeeBps)
    throw new CommerceTermsError(
      `feeBps ${feeBps} is above the ${record.maxFeeBps} the payer authorized (maxFeeBps)`,
    )
  if (feeBps > 0 && !sameAddress(feeReceiver!, record.feeReceiver ?? ''))
    throw new CommerceTermsError(`feeReceiver must be ${record.feeReceiver}, the one the payer authorized`)
  const args = [
    record.paymentReference,
    amount,
    feeBps,
    feeReceiver ?? '0x0000000000000000000000000000000000000000',
  ] as const
  return plan(
    record,
    'capture',
    record.operator as Address,
    { functionName: 'capturePayment', args },
    amount,
    {
      feeAmount: (amount * BigInt(feeBps)) / 10_000n,
      feeReceiver,
    },
  )
}

async function planVoid(ctx: CommerceCtx, record: CommercePaymentRecord) {
  const { amounts, time } = await readHold(ctx, record)
  if (!amounts) throw new CommerceStateError('Commerce payment is not authorized yet')
  if (amounts.capturable === 0n)
    throw new CommerceStateError(
      `Commerce payment is ${statusOf(amounts, time, record.preApprovalExpiry)}: nothing left to void`,
    )
  const call = { functionName: 'voidPayment', args: [record.paymentReference] as const }
  return plan(record, 'void', record.operator as Address, call, amounts.capturable)
}

async function planRefund(ctx: CommerceCtx, record: CommercePaymentRecord, body: RefundBody) {
  const { chain, amounts, time } = await readHold(ctx, record)
  const refundable = amounts ? amounts.captured - amounts.refunded : 0n
  if (!amounts || refundable === 0n)
    throw new CommerceStateError(
      `Commerce payment is ${statusOf(amounts, time, record.preApprovalExpiry)}: nothing captured to refund`,
    )
  if (time >= record.refundExpiry)
    throw new CommerceStateError('The refund window of this payment has closed')
  const amount = body?.amount ? toBaseUnits(body.amount, record.decimals) : refundable
  if (amount === 0n) throw new CommerceTermsError('amount is below the smallest unit of the token')
  if (amount > refundable)
    throw new CommerceTermsError(
      `amount ${fromBaseUnits(amount, record.decimals)} is above what can be refunded (${fromBaseUnits(refundable, record.decimals)})`,
    )
  // the merchant sends the refund from its own tokens
  const merchant = record.merchant as Address
  const allowance = await chain.allowance(
    record.tokenAddress as Address,
    merchant,
    record.escrowAddress as Address,
  )
  const call = { functionName: 'refundPayment', args: [record.paymentReference, amount] as const }
  const planned = plan(record, 'refund', merchant, call, amount)
  if (allowance < amount)
    planned.transactions.unshift(
      approve(record.tokenAddress as Address, record.escrowAddress as Address, amount),
    )
  return planned
}

function plan(
  record: CommercePaymentRecord,
  action: Action,
  sender: Address,
  call: PlannedCall['call'],
  amount: bigint,
  fee: { feeAmount: bigint; feeReceiver: Address | null } = { feeAmount: 0n, feeReceiver: null },
): PlannedCall {
  const data = encodeFunctionData({
    abi: commerceEscrowAbi,
    functionName: call.functionName,
    args: call.args,
  } as never)
  return {
    action,
    sender,
    transactions: [tx(record.escrowAddress as Address, data)],
    call,
    amount,
    ...fee,
  }
}

function calldataBody(record: CommercePaymentRecord, planned: PlannedCall) {
  return {
    requestId: record.requestId,
    paymentReference: record.paymentReference,
    transactions: planned.transactions,
    metadata: {
      action: planned.action as 'capture' | 'void' | 'refund',
      sender: planned.sender,
      amount: fromBaseUnits(planned.amount, record.decimals),
      feeAmount: fromBaseUnits(planned.feeAmount, record.decimals),
      feeReceiver: planned.feeReceiver,
    },
  }
}

/** Calldata of capture, void or the refund, for the wallet that must send it. */
export async function actionCalldata(
  ctx: CommerceCtx,
  requestId: string,
  action: 'capture' | 'void' | 'refund',
  body: CaptureBody | RefundBody,
) {
  const record = getCommercePayment(ctx, requestId)
  const planned =
    action === 'capture'
      ? await planCapture(ctx, record, (body ?? {}) as CaptureBody)
      : action === 'void'
        ? await planVoid(ctx, record)
        : await planRefund(ctx, record, body as RefundBody)
  return calldataBody(record, planned)
}

/**
 * The execute operations: the API operator sends the escrow call itself (authorization through the payer's
 * allowance to the escrow, capture, void), then applies the transaction's escrow events and answers the status.
 */
export async function execute(
  ctx: CommerceCtx,
  requestId: string,
  action: 'authorize' | 'capture' | 'void',
  body: CaptureBody | undefined,
) {
  const record = getCommercePayment(ctx, requestId)
  const operator = ctx.operator
  if (!operator) throw new CommerceTermsError('Commerce payments need a live chain')
  if (!sameAddress(record.operator, operator.address))
    throw new CommerceTermsError(
      `The payment's operator is ${record.operator}, not the API operator ${operator.address}: send the ${action} calldata from that wallet`,
    )
  const planned =
    action === 'authorize'
      ? await planAuthorize(ctx, record)
      : action === 'capture'
        ? await planCapture(ctx, record, body ?? {})
        : await planVoid(ctx, record)
  let hash: Hex
  try {
    hash = await operator.execute(record.network, {
      to: record.escrowAddress as Address,
      abi: commerceEscrowAbi,
      functionName: planned.call.functionName,
      args: planned.call.args,
    })
  } catch (error) {
    throw new CommerceTermsError(`The escrow refused the ${action}: ${revertReason(error)}`)
  }
  // the escrow watcher is the one writer of transitions (in chain order): wait until it recorded this one
  await waitFor(
    () => (getCommercePayment(ctx, requestId).transitions.some((x) => x.txHash === hash) ? true : undefined),
    { timeoutMs: 5_000, intervalMs: 10 },
  ).catch(() => undefined)
  const { amounts, now } = await readHold(ctx, record)
  return { ...statusBody(getCommercePayment(ctx, requestId), amounts, now), transactionHash: hash }
}

async function planAuthorize(ctx: CommerceCtx, record: CommercePaymentRecord): Promise<PlannedCall> {
  const { chain, amounts, time } = await readHold(ctx, record)
  if (amounts) throw new CommerceStateError('Commerce payment is already authorized')
  if (time >= record.preApprovalExpiry)
    throw new CommerceStateError('Pre-approval expired: the payment can no longer be authorized')
  const amount = BigInt(record.amount)
  const token = record.tokenAddress as Address
  const [balance, allowance] = await Promise.all([
    chain.balanceOf(token, record.payer as Address),
    chain.allowance(token, record.payer as Address, record.escrowAddress as Address),
  ])
  if (allowance < amount)
    throw new CommerceTermsError(
      `The payer has not approved the escrow ${record.escrowAddress} for ${fromBaseUnits(amount, record.decimals)} ${record.paymentCurrency}`,
    )
  if (balance < amount) throw new CommerceTermsError('The payer does not hold enough funds')
  const call = { functionName: 'authorizePayment', args: authorizeArgs(record) }
  return plan(record, 'authorize', ctx.operator!.address as Address, call, amount)
}

function authorizeArgs(record: CommercePaymentRecord) {
  return [
    record.paymentReference,
    record.payer,
    record.merchant,
    record.operator,
    record.tokenAddress,
    BigInt(record.amount),
    BigInt(record.maxAmount),
    BigInt(record.preApprovalExpiry),
    BigInt(record.authorizationExpiry),
    BigInt(record.refundExpiry),
    record.maxFeeBps,
    record.feeReceiver ?? '0x0000000000000000000000000000000000000000',
  ] as const
}

function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase()
}

const TRANSITION_OF: Record<EscrowEvent['name'], CommerceTransition['type']> = {
  PaymentAuthorized: 'authorize',
  PaymentCaptured: 'capture',
  PaymentVoided: 'void',
  PaymentReclaimed: 'reclaim',
  PaymentRefunded: 'refund',
}

const EVENT_OF: Record<CommerceTransition['type'], EventType> = {
  authorize: 'commerce_payment.authorized',
  capture: 'commerce_payment.captured',
  void: 'commerce_payment.voided',
  reclaim: 'commerce_payment.reclaimed',
  refund: 'commerce_payment.refunded',
}

/**
 * The escrow watcher's sink (its one writer, called in chain order, one call at a time per chain): records escrow
 * events on the commerce payments of every tenant that carry their reference (once per log) and emits one webhook
 * per transition.
 */
export async function applyEscrowEvents(
  shared: Pick<Shared, 'events' | 'paymentReferences' | 'worlds' | 'log'>,
  events: readonly EscrowEvent[],
): Promise<void> {
  if (events.length === 0) return
  // after a --state-dir restart, once every saved world is back (in the background): nothing is revived at once here
  await shared.paymentReferences.complete()
  const live = new Set(shared.worlds.all())
  for (const event of events) {
    for (const entry of shared.paymentReferences.lookup(keccakHex(event.paymentReference), live, {
      revive: true,
    })) {
      try {
        await applyTo(shared, entry.world, entry.requestId, event)
      } catch (error) {
        shared.log(`recording escrow event ${event.txHash}:${event.logIndex} failed`, error)
      }
    }
  }
}

async function applyTo(
  shared: Pick<Shared, 'events'>,
  world: World,
  requestId: string,
  event: EscrowEvent,
): Promise<void> {
  const table = commercePaymentState(world).commercePayments
  const record = table.get(requestId)
  if (!record || record.chainId !== event.chainId) return
  if (record.transitions.some((t) => t.txHash === event.txHash && t.logIndex === event.logIndex)) return
  const transition: CommerceTransition = {
    type: TRANSITION_OF[event.name],
    amount: fromBaseUnits(event.amount, record.decimals),
    feeAmount: fromBaseUnits(event.feeAmount, record.decimals),
    txHash: event.txHash,
    logIndex: event.logIndex,
    blockNumber: Number(event.blockNumber),
    timestamp: event.timestamp.toISOString(),
  }
  const updated = await table.update(requestId, (draft) => {
    draft.transitions.push(transition)
    draft.status = statusOf(amountsOfTransitions(draft), 0, draft.preApprovalExpiry)
    draft.updatedAt = world.clock.now().toISOString()
  })
  if (!updated) return
  const amounts = amountsOfTransitions(updated)
  const human = (units: bigint) => fromBaseUnits(units, updated.decimals)
  shared.events.emit(world, EVENT_OF[transition.type], {
    requestId: updated.requestId,
    paymentReference: updated.paymentReference,
    status: updated.status,
    amount: transition.amount,
    feeAmount: transition.feeAmount,
    ...(event.feeReceiver ? { feeReceiver: event.feeReceiver } : {}),
    ...(event.by ? { refundedBy: event.by } : {}),
    authorizedAmount: human(amounts.authorized),
    capturableAmount: human(amounts.capturable),
    capturedAmount: human(amounts.captured),
    refundedAmount: human(amounts.refunded),
    paymentCurrency: updated.paymentCurrency,
    network: updated.network,
    chainId: updated.chainId,
    escrowAddress: updated.escrowAddress,
    payer: updated.payer,
    merchant: updated.merchant,
    operator: updated.operator,
    txHash: transition.txHash,
    timestamp: transition.timestamp,
    ...(updated.clientId ? { clientId: updated.clientId } : {}),
  })
}

/** A payment's amounts as its applied escrow events give them (human-readable), with its last announced status. */
export function commerceSummary(record: CommercePaymentRecord) {
  const a = amountsOfTransitions(record)
  const human = (units: bigint) => fromBaseUnits(units, record.decimals)
  return {
    status: record.status,
    amount: human(BigInt(record.amount)),
    authorizedAmount: human(a.authorized),
    capturableAmount: human(a.capturable),
    capturedAmount: human(a.captured),
    refundedAmount: human(a.refunded),
  }
}

/** The commerce payments of a world, newest first (the dashboard's list). */
export function listCommercePayments(world: World): CommercePaymentRecord[] {
  return commercePaymentState(world)
    .commercePayments.all()
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0))
}
