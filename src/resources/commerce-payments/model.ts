// Commerce payments: a request (createRequest) whose funds the payer holds in the sandbox's escrow until the
// operator captures them (paid to the merchant through ERC20FeeProxy with the request's reference, so detection
// marks the request paid) or voids them. The escrow is the truth: the status route reads the hold from the chain;
// the transitions (and their webhooks) come from the escrow's events, applied once each (escrow-events.ts). This file:
// the lifecycle (statusOf), the hold's amounts, the status and the list; calldata.ts plans the escrow calls,
// execute.ts has the API operator send them.
import type { Hex } from 'viem'
import {
  COMMERCE_ESCROW,
  chainTime,
  type EscrowHold,
  type LiveChain,
  readEscrowHold,
} from '../../chain/index.ts'
import { fromBaseUnits, toBaseUnits } from '../../contract/amounts.ts'
import type { World } from '../../contract/world.ts'
import type { Uses } from '../services.ts'
import { CommercePaymentNotFoundError, CommerceTermsError } from './errors.ts'
import type {
  CommercePaymentRecord,
  CommerceStatus,
  CommerceStatusResponse,
  CommerceTransition,
} from './schema.ts'
import { commercePaymentState } from './tables.ts'

export type CommerceCtx = Uses<
  'currencies' | 'ids' | 'offrampAddress' | 'paymentReferences' | 'chains' | 'operator' | 'events'
>

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
export function amountsOfTransitions(record: CommercePaymentRecord): HoldAmounts {
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
export function liveChainFor(ctx: Pick<CommerceCtx, 'chains'>, network: string): LiveChain {
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
export function terms(record: CommercePaymentRecord) {
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
export async function readHold(ctx: Pick<CommerceCtx, 'chains' | 'world'>, record: CommercePaymentRecord) {
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
export function statusBody(record: CommercePaymentRecord, amounts: HoldAmounts | null, now: number) {
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
export function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase()
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
