// Payout links (`flow: pay`): a payer's own link to pay a recipient, batch links combining pending payout links
// (the combined tokens stop working: 403), and multicall payouts (an ordered selection read back by token).
// Differences from the real service: a multicall payout is paid as one batchPayments transaction of its children
// (the sandbox runs no smart accounts); Tron payout links pay on the sandbox's tron chain (secure-payments/tron.ts), a
// multicall of Tron payouts through the Tron batch contract (tron-batch.ts).

import { formatWad, toWad } from '../../contract/decimal.ts'
import type { World } from '../../contract/world.ts'
import { createRequest, isFullyPaid } from '../requests/index.ts'
import { inWorld } from '../services.ts'
import type { Ctx, SecureServices } from './context.ts'
import {
  type MulticallFailure,
  MulticallValidationError,
  SecurePaymentCompletedError,
  SecurePaymentNotFoundError,
  SecurePaymentRequestError,
  SecurePaymentUnavailableError,
} from './errors.ts'
import { checkRedirect, linkRequests, linkStatus, storeLink } from './model.ts'
import { priceOrchestratorFees, refusePlanOverride } from './orchestrator-fees.ts'
import type { MulticallRecord, PayoutSecurePaymentBody, SecurePaymentRecord } from './schema.ts'
import { securePaymentState } from './tables.ts'
import { indexToken, worldOfToken } from './token-index.ts'
import { multicallKind } from './tron-batch.ts'

/** `POST /v2/secure-payments/payouts`: a request to `recipient` and its link. */
export async function createPayoutLink(ctx: Ctx, body: PayoutSecurePaymentBody) {
  refusePlanOverride(ctx, body.accessPolicy)
  checkRedirect(body)
  const shared = ctx
  const network = body.network.toLowerCase()
  if (network === 'nile')
    throw new SecurePaymentRequestError('Unsupported network nile: Tron payouts run on tron')
  const currency =
    shared.currencies.byId(body.currency) ??
    shared.currencies.all.find((c) => c.network === network && c.symbol === body.currency)
  if (!currency || currency.type === 'ISO4217' || currency.network !== network)
    throw new SecurePaymentRequestError(`Unsupported currency ${body.currency} on network ${body.network}`)
  const grossAmounts = [{ amount: body.amount, currency: currency.id }]
  const pricing = priceOrchestratorFees(ctx, 'pay', grossAmounts)
  const request = await createRequest(ctx, {
    amount: pricing.netAmounts[0]!,
    invoiceCurrency: currency.id,
    paymentCurrency: currency.id,
    payee: body.recipient,
    payer: body.creatorWalletAddress,
    ...(body.reference ? { reference: body.reference } : {}),
  })
  return storeLink(ctx, [request], [null], {
    flow: 'pay',
    ...body,
    ...(pricing.orchestratorId ? { orchestrator: { pricing, grossAmounts } } : {}),
  })
}

function ownPendingPayout(ctx: Ctx, token: string): SecurePaymentRecord {
  const link = securePaymentState(ctx.world).securePayments.get(token)
  if (!link) throw new SecurePaymentRequestError(`Secure payment ${token} not found`)
  if (link.flow !== 'pay' || link.paymentType !== 'single')
    throw new SecurePaymentRequestError(`Secure payment ${token} is not a single payout`)
  if (link.combinedInto !== null || linkStatus(ctx, ctx.world, link) !== 'pending')
    throw new SecurePaymentRequestError(`Secure payment ${token} is not pending`)
  return link
}

/** Payouts paid by one batchPayments transaction share one network and one fee (400 otherwise). */
function oneNetworkAndFee(links: SecurePaymentRecord[], what: string): void {
  if (new Set(links.map((l) => l.network)).size > 1)
    throw new SecurePaymentRequestError(`All payouts of ${what} must be on the same network`)
  if (new Set(links.map((l) => `${l.feePercentage}:${l.feeAddress}`)).size > 1)
    throw new SecurePaymentRequestError(`All payouts of ${what} must carry the same fee`)
}

/** `POST /v2/secure-payments/batch-payouts`: one batch link over pending payout links on one network. */
export async function createBatchPayoutLink(
  ctx: Ctx,
  body: { tokens: string[]; redirectUrl?: string | undefined; redirectLabel?: string | undefined },
) {
  checkRedirect(body)
  if (new Set(body.tokens).size !== body.tokens.length)
    throw new SecurePaymentRequestError('tokens must not repeat')
  const links = body.tokens.map((t) => ownPendingPayout(ctx, t))
  oneNetworkAndFee(links, 'a batch')
  const requests = links.flatMap((l) => linkRequests(ctx.world, l))
  const first = links[0]!
  const batch = await storeLink(
    ctx,
    requests,
    links.flatMap((l) => l.destinationIds),
    {
      flow: 'pay',
      ...(first.feePercentage ? { feePercentage: first.feePercentage, feeAddress: first.feeAddress! } : {}),
      redirectUrl: body.redirectUrl,
      redirectLabel: body.redirectLabel,
    },
  )
  for (const link of links)
    await securePaymentState(ctx.world).securePayments.update(link.token, (draft) => {
      draft.combinedInto = batch.token
      draft.status = 'invalidated'
    })
  // the payouts' orchestrator fees, fixed when each was created, move to the batch that pays them
  const orchestratorFees = links.flatMap((l) => l.orchestratorFees ?? [])
  if (orchestratorFees.length === 0) return batch
  return (await securePaymentState(ctx.world).securePayments.update(batch.token, (draft) => {
    draft.orchestratorFees = orchestratorFees
    draft.orchestratorId = links.find((l) => l.orchestratorId)?.orchestratorId ?? null
  }))!
}

/** The deployed default cap on a multicall payout's children (api-reference/secure-payments.mdx). */
export const MULTICALL_CHILD_CAP = 150

/** Why a child cannot join a multicall payout (a documented `failures[].reason`), or null when it can. */
function childFailure(ctx: Ctx, token: string): MulticallFailure | null {
  const link = securePaymentState(ctx.world).securePayments.get(token)
  const failure = (reason: string, recoveryAction: string, context: Record<string, unknown> = {}) => ({
    securePaymentToken: token,
    reason,
    messageKey: `multicall.child.${reason}`,
    context: { securePaymentToken: token, ...context },
    recoveryAction,
  })
  if (!link) return failure('not_payable_child', 'remove_child')
  const context = { requestId: link.requestIds[0], network: link.network, currency: link.currency }
  if (link.flow !== 'pay') return failure('not_outgoing', 'remove_child', context)
  if (link.paymentType !== 'single' || link.combinedInto !== null)
    return failure('not_payable_child', 'remove_child', context)
  const status = linkStatus(ctx, ctx.world, link)
  if (status === 'completed') return failure('already_paid', 'remove_child', context)
  if (status === 'expired')
    return failure('secure_payment_expired', 'recreate_child', { ...context, expiresAt: link.expiresAt })
  if (status !== 'pending') return failure('not_payable_child', 'remove_child', context)
  return null
}

/**
 * `POST /v2/secure-payments/multicall-payouts`: an ordered selection of the caller's pending payout links. Ineligible
 * children and a count over the cap answer the documented `multicall_validation_failed` envelope; the parent
 * expires with its earliest child.
 */
export async function createMulticall(
  ctx: Ctx,
  body: { childTokens: string[]; requestedExecutionKind?: MulticallRecord['executionKind'] | undefined },
) {
  if (new Set(body.childTokens).size !== body.childTokens.length)
    throw new SecurePaymentRequestError('childTokens must not repeat')
  if (body.childTokens.length > MULTICALL_CHILD_CAP)
    throw new MulticallValidationError(
      [
        {
          securePaymentToken: '*',
          reason: 'too_many_children',
          messageKey: 'multicall.too_many_children',
          context: { maximum: MULTICALL_CHILD_CAP, actual: body.childTokens.length },
          recoveryAction: 'reduce_children',
        },
      ],
      {
        type: 'child_count',
        maximum: MULTICALL_CHILD_CAP,
        actual: body.childTokens.length,
        reduceBy: body.childTokens.length - MULTICALL_CHILD_CAP,
      },
    )
  const failures = body.childTokens.map((t) => childFailure(ctx, t)).filter((f) => f !== null)
  if (failures.length > 0) throw new MulticallValidationError(failures)
  const children = body.childTokens.map((t) => securePaymentState(ctx.world).securePayments.get(t)!)
  oneNetworkAndFee(children, 'a multicall payout')
  const executionKind = multicallKind(children, body.requestedExecutionKind)
  const now = ctx.world.clock.now()
  const earliest = Math.min(...children.map((c) => Date.parse(c.expiresAt)))
  const record = await securePaymentState(ctx.world).multicallPayouts.insert({
    token: ctx.ids.ulid(now.getTime()),
    childTokens: body.childTokens,
    executionKind,
    createdAt: now.toISOString(),
    expiresAt: new Date(earliest).toISOString(),
  })
  indexToken(ctx.directory, ctx.world, record.token)
  return {
    type: 'multicall' as const,
    token: record.token,
    status: 'pending' as const,
    expiresAt: record.expiresAt,
    createdAt: record.createdAt,
    items: children.map((c, position) => ({
      securePaymentToken: c.token,
      requestId: c.requestIds[0]!,
      position,
      eligibility: 'eligible' as const,
    })),
  }
}

/** The multicall payout with this token, in the world the directory names for it (token-index.ts). */
export function findMulticall(
  shared: SecureServices,
  token: string,
): { world: World; record: MulticallRecord } | undefined {
  const world = worldOfToken(shared, token)
  const record = world ? securePaymentState(world).multicallPayouts.get(token) : undefined
  return world && record ? { world, record } : undefined
}

/**
 * The multicall payout of a token route, refused like a link when it cannot be paid (409 once every child is
 * paid, 403 past its expiry on the owner's clock); undefined when the token names no multicall payout.
 */
export function payableMulticall(shared: SecureServices, token: string) {
  const found = findMulticall(shared, token)
  if (!found) return undefined
  const state = multicallState(inWorld(shared, found.world), token)
  if (state.status === 'completed') throw new SecurePaymentCompletedError()
  if (found.world.clock.now().getTime() >= Date.parse(found.record.expiresAt))
    throw new SecurePaymentUnavailableError()
  return { ...found, state }
}

/** The requests of a multicall payout's children still to pay, in order (what one batchPayments pays). */
export function multicallRequestIds(ctx: Ctx, record: MulticallRecord): string[] {
  return record.childTokens
    .map((t) => securePaymentState(ctx.world).securePayments.get(t)!)
    .filter((link) => linkStatus(ctx, ctx.world, link) === 'pending')
    .flatMap((link) => link.requestIds)
}

/** `GET /v2/secure-payments/multicall-payouts/{token}`: the selection with each child's state. */
export function multicallState(ctx: Ctx, token: string) {
  const { world } = ctx
  const shared = ctx
  const record = securePaymentState(world).multicallPayouts.get(token)
  if (!record) throw new SecurePaymentNotFoundError('Multicall payout not found')
  const children = record.childTokens.map((childToken, position) => {
    const link = securePaymentState(world).securePayments.get(childToken)!
    const request = linkRequests(world, link)[0]!
    const paid = isFullyPaid(shared, request)
    const status = linkStatus(shared, world, link)
    const blockReason = paid
      ? ('already_paid' as const)
      : status === 'expired'
        ? ('secure_payment_expired' as const)
        : status !== 'pending'
          ? ('secure_payment_not_pending' as const)
          : null
    return {
      securePaymentToken: childToken,
      requestId: request.requestId,
      position,
      executable: blockReason === null,
      blockReason,
      messageKey: blockReason,
      context: {
        requestId: request.requestId,
        securePaymentToken: childToken,
        position,
        hasBeenPaid: paid,
        securePaymentStatus: status,
        expiresAt: link.expiresAt,
        network: link.network,
        currency: link.currency,
      },
      recoveryAction: blockReason ? ('remove_child' as const) : null,
      feePlan: link.feePlan,
      amount: request.amount,
      payee: request.paymentAddress,
      reference: request.reference,
    }
  })
  const blocked = children.filter((c) => !c.executable).length
  const totals = new Map<string, { network: string; currency: string; total: bigint }>()
  for (const c of children) {
    const key = `${c.context.network}:${c.context.currency}`
    const entry = totals.get(key) ?? { network: c.context.network!, currency: c.context.currency!, total: 0n }
    entry.total += toWad(c.amount)
    totals.set(key, entry)
  }
  const gross = children.reduce((s, c) => s + toWad(c.amount), 0n)
  // fees are known in USD only (the fee plan): the summary counts them as such
  const fees = children.reduce((s, c) => s + toWad(c.feePlan.payerBorneFeesUsd), 0n)
  const expired = world.clock.now().getTime() >= Date.parse(record.expiresAt)
  const paidCount = children.filter((c) => c.context.hasBeenPaid).length
  return {
    paymentType: 'multicall' as const,
    status:
      paidCount === children.length
        ? ('completed' as const)
        : paidCount > 0
          ? ('partially_settled' as const)
          : expired
            ? ('expired' as const)
            : ('pending' as const),
    redirectUrl: null,
    redirectLabel: null,
    orchestratorId: null,
    branding: { id: 'request-network', displayRequestBranding: true },
    analytics: { creationTimestamp: record.createdAt, numberOfPaymentsExcludingFees: children.length },
    requestIds: children.map((c) => c.requestId),
    token: record.token,
    canExecute: blocked === 0 && !expired,
    expiresAt: record.expiresAt,
    createdAt: record.createdAt,
    children,
    totals: {
      childCount: children.length,
      blockedChildCount: blocked,
      byDestinationCurrency: [...totals.values()].map((t) => ({
        network: t.network,
        currency: t.currency,
        totalAmount: formatWad(t.total),
      })),
      amountSummary: {
        grossAmount: formatWad(gross),
        netRecipientAmount: formatWad(gross),
        totalFees: formatWad(fees),
        payeeBorneFees: '0',
        payerBorneFees: formatWad(fees),
        payerTotal: formatWad(gross + fees),
      },
    },
  }
}
