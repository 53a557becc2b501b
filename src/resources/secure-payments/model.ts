// Secure payment links: created by a tenant (API key or client ID), read and paid through the token routes by that
// tenant's client IDs (x-client-id + Origin, api-reference/secure-payments.mdx) or API key, and by the sandbox's page.
// Differences from the real service: the link points at this sandbox's own page (/__sandbox/secure-payment?token=…,
// on the Host the caller used), which reads the link through its own public routes; no KYT screening runs
// (allowedPayerAddresses is the only access rule); links expire 7 days after creation on the creator's clock, or
// once every request is paid.
import { fromBaseUnits } from '../../contract/amounts.ts'
import type { Caller } from '../../contract/caller.ts'
import type { NeutralRequest } from '../../contract/neutral.ts'
import { publicBaseUrl } from '../../contract/public-url.ts'
import { UnauthorizedError } from '../../contract/sandbox-error.ts'
import { linkUrlProblem } from '../../contract/security.ts'
import type { World } from '../../contract/world.ts'
import { effectiveFee } from '../client-ids/index.ts'
import { resolveDestination } from '../payee-destinations/index.ts'
import type { RequestRecord } from '../requests/index.ts'
import { isFullyPaid, requestState } from '../requests/index.ts'
import type { Ctx, SecureServices } from './context.ts'
import {
  SecurePaymentCompletedError,
  SecurePaymentForbiddenError,
  SecurePaymentInProgressError,
  SecurePaymentNotFoundError,
  SecurePaymentRequestError,
  SecurePaymentUnavailableError,
} from './errors.ts'
import { pricedFeePlan } from './fee-plan.ts'
import type { OrchestratorPricing } from './orchestrator-fees.ts'
import type { SecurePaymentListQuery, SecurePaymentRecord } from './schema.ts'
import { securePaymentState } from './tables.ts'
import { indexToken, worldOfToken } from './token-index.ts'
import { orchestratorLegsDone } from './tron-orchestrator-fees.ts'

/** How long a link stays payable (DOCS: 7 days, or until paid). */
export const LINK_LIFETIME_MS = 7 * 24 * 3600 * 1000

/** The page a link opens, on the base URL the caller reached the sandbox at. */
export function securePaymentUrl(request: NeutralRequest, token: string): string {
  return `${publicBaseUrl(request)}/__sandbox/secure-payment?token=${token}`
}

/** The link with this token, in the world the directory names for it (token-index.ts); no other world is read. */
export function findLink(
  shared: SecureServices,
  token: string,
): { world: World; link: SecurePaymentRecord } | undefined {
  const world = worldOfToken(shared, token)
  const link = world ? securePaymentState(world).securePayments.get(token) : undefined
  return world && link ? { world, link } : undefined
}

/**
 * The token routes answer the account that created the link only (its API key or one of its client IDs); another
 * account's credential is 401, as the reference says (api-reference/secure-payments.mdx, Authentication).
 */
export function checkOwner(caller: Caller | null | undefined, world: World): void {
  if (!caller || caller.tenant !== world.tenant)
    throw new UnauthorizedError('Client ID is not authorized for this secure payment')
}

/** The link's requests, in order. */
export function linkRequests(world: World, link: SecurePaymentRecord): RequestRecord[] {
  return link.requestIds.map((id) => requestState(world).requests.get(id)!)
}

/**
 * Current status: `completed` once every request is paid (and, on Tron, the resource-fee leg and every orchestrator
 * fee leg executed too: status follows what executed on chain, whichever leg came first), `expired` past its date on
 * the owner's clock.
 */
export function linkStatus(
  shared: SecureServices,
  world: World,
  link: SecurePaymentRecord,
): SecurePaymentRecord['status'] {
  if (link.status !== 'pending') return link.status
  const feeDone =
    link.network !== 'tron' || (link.resourceFee?.executed === true && orchestratorLegsDone(link))
  if (feeDone && linkRequests(world, link).every((r) => isFullyPaid(shared, r))) return 'completed'
  if (world.clock.now().getTime() >= Date.parse(link.expiresAt)) return 'expired'
  return 'pending'
}

/** The link of a token route, refused as the document says when it cannot be paid (404, 409, 403). */
export function payableLink(
  shared: SecureServices,
  token: string,
): { world: World; link: SecurePaymentRecord } {
  const found = findLink(shared, token)
  if (!found) throw new SecurePaymentNotFoundError()
  const status = linkStatus(shared, found.world, found.link)
  if (status === 'completed') throw new SecurePaymentCompletedError()
  if (status !== 'pending') throw new SecurePaymentUnavailableError()
  return found
}

/**
 * 423 while a Safe transaction recorded by /intent has not executed: the link is not paid yet and the Safe's
 * deadline (when given) has not passed. Execution is seen from the chain: the detector records the payment the
 * Safe's execTransaction made (the Safe as payer), which completes the link (api-features/safe-multisig-payments.mdx).
 */
export function checkSafeInProgress(shared: SecureServices, world: World, link: SecurePaymentRecord): void {
  const nowSeconds = Math.floor(world.clock.now().getTime() / 1000)
  const pending = link.intents.filter(
    (i) => i.safeTxHash && (i.safePaymentDeadline === undefined || nowSeconds < i.safePaymentDeadline),
  )
  const intent = pending.at(-1)
  if (!intent?.safeTxHash) return
  const chainId = shared.currencies.byId(link.currency)?.chainId ?? 0
  throw new SecurePaymentInProgressError(
    linkRequests(world, link).map((r) => ({
      requestId: r.requestId,
      hasBeenPaid: isFullyPaid(shared, r),
      safeTxHash: intent.safeTxHash!,
      chainId: Number(chainId),
      safePaymentDeadline: intent.safePaymentDeadline ?? null,
    })),
  )
}

/**
 * The link an execution is recorded against: a payable one, or a link already completed by the very transaction
 * being recorded (a wallet reports its hash after broadcasting; the sandbox's detector can see it first, where the
 * hosted service takes seconds). Anything else answers as `payableLink` does (409 completed, 403 expired).
 */
export function recordableLink(
  shared: SecureServices,
  token: string,
  txHash: string | undefined,
): { world: World; link: SecurePaymentRecord; alreadyPaid: boolean } {
  const found = findLink(shared, token)
  if (found && txHash && linkStatus(shared, found.world, found.link) === 'completed') {
    const hash = txHash.toLowerCase()
    const paidByIt = linkRequests(found.world, found.link).some((r) =>
      r.payments.some((p) => p.txHash.toLowerCase() === hash),
    )
    if (paidByIt) return { ...found, alreadyPaid: true }
  }
  return { ...payableLink(shared, token), alreadyPaid: false }
}

/** Characters a redirect URL may not hold (api-reference/secure-payments.mdx: HTML/script payload, whitespace). */
const UNSAFE_REDIRECT = /[<>"'`\s]/

/** The documented refusal of a `redirectUrl` (use-cases/programmatic-payment-links.mdx, "Validation rules"). */
export const UNSAFE_REDIRECT_MESSAGE = 'redirectUrl must be a safe http(s) URL with no script/HTML payload'

/**
 * The documented refusals of `redirectUrl` and `redirectLabel` on every create endpoint, in the documented words:
 * a label needs a URL (400 `redirectLabel cannot be provided without redirectUrl`); a URL that is not an absolute
 * http(s) URL (`javascript:`, `data:`, relative), holds HTML/script payload characters, whitespace or credentials
 * answers 400 `redirectUrl must be a safe http(s) URL with no script/HTML payload`.
 */
export function checkRedirect(body: {
  redirectUrl?: string | undefined
  redirectLabel?: string | undefined
}): void {
  if (body.redirectLabel !== undefined && !body.redirectUrl)
    throw new SecurePaymentRequestError('redirectLabel cannot be provided without redirectUrl')
  if (
    body.redirectUrl !== undefined &&
    (UNSAFE_REDIRECT.test(body.redirectUrl) || linkUrlProblem(body.redirectUrl) !== null)
  )
    throw new SecurePaymentRequestError(UNSAFE_REDIRECT_MESSAGE)
}

/** The caller's links, newest first, through the 2026-Q1 filters (request id, payout flag, creation time). */
export function listLinks(ctx: Ctx, filters: SecurePaymentListQuery): SecurePaymentRecord[] {
  const after = filters.createdAfter ? Date.parse(filters.createdAfter) : -Infinity
  const before = filters.createdBefore ? Date.parse(filters.createdBefore) : Infinity
  const requestId = filters.requestId?.toLowerCase()
  return securePaymentState(ctx.world)
    .securePayments.all()
    .filter(
      (l) =>
        (requestId === undefined || l.requestIds.includes(requestId)) &&
        (filters.payout === undefined || (l.flow === 'pay') === (filters.payout === 'true')) &&
        Date.parse(l.createdAt) >= after &&
        Date.parse(l.createdAt) <= before,
    )
    .reverse()
    .slice(0, filters.limit ?? 100)
}

/**
 * The KYT configuration a link keeps (compliance-gated-payments.mdx, "How KYT settings are resolved"): the payment's
 * own `accessPolicy` mode when it sets one, else the policy of the destination it pays; null when it screens no one.
 */
function resolveKyt(
  ctx: Ctx,
  options: LinkOptions,
  destinationIds: (string | null)[],
): SecurePaymentRecord['kyt'] {
  const own = options.accessPolicy
  if (own?.mode === 'off') return null
  if (own?.mode === 'kyt_all_wallets' && own.screeningProvider)
    return { mode: 'kyt_all_wallets', screeningProvider: own.screeningProvider }
  for (const id of destinationIds) {
    const policy = id ? resolveDestination(ctx.world, id)?.accessPolicy : null
    if (policy?.mode === 'kyt_all_wallets' && policy.screeningProvider)
      return { mode: 'kyt_all_wallets', screeningProvider: policy.screeningProvider }
  }
  return null
}

/** What every create endpoint stores besides its requests. */
export interface LinkOptions {
  flow: SecurePaymentRecord['flow']
  feePercentage?: string | undefined
  feeAddress?: string | undefined
  reference?: string | undefined
  redirectUrl?: string | undefined
  redirectLabel?: string | undefined
  accessPolicy?:
    | {
        allowedPayerAddresses?: string[] | undefined
        hidePayeeAddress?: boolean | undefined
        mode?: 'inherit' | 'off' | 'kyt_all_wallets' | undefined
        screeningProvider?: 'hypernative' | 'merklescience' | null | undefined
      }
    | undefined
  payer?: string | undefined
  /** the orchestrator fees priced for these requests, and the amounts before recipient-borne fees */
  orchestrator?: { pricing: OrchestratorPricing; grossAmounts: { amount: string; currency: string }[] }
}

/** Stores a link over existing requests (all on one network, in one currency for the fee plan). */
export async function storeLink(
  ctx: Ctx,
  requests: RequestRecord[],
  destinationIds: (string | null)[],
  options: LinkOptions,
): Promise<SecurePaymentRecord> {
  const { world } = ctx
  const shared = ctx
  const fee = effectiveFee(ctx, options) // a client ID's own fee overrides the API-passed one, as on pay
  const now = world.clock.now()
  const first = requests[0]!
  const allowed = options.accessPolicy?.allowedPayerAddresses
  const orchestrator = options.orchestrator
  const currencyOf = (id: string) => shared.currencies.byId(id)!
  const token = shared.ids.ulid(now.getTime())
  indexToken(shared.directory, world, token)
  return securePaymentState(world).securePayments.insert({
    token,
    paymentType: requests.length > 1 ? 'batch' : 'single',
    flow: options.flow,
    status: 'pending',
    requestIds: requests.map((r) => r.requestId),
    network: first.network,
    currency: first.paymentCurrency,
    destinationIds,
    feePercentage: fee.feePercentage ?? null,
    feeAddress: fee.feeAddress ?? null,
    reference: options.reference ?? null,
    redirectUrl: options.redirectUrl ?? null,
    redirectLabel: options.redirectLabel ?? null,
    allowedPayerAddresses: allowed?.length ? allowed.map((a) => a.toLowerCase()) : null,
    hidePayeeAddress: options.accessPolicy?.hidePayeeAddress ?? false,
    kyt: resolveKyt(ctx, options, destinationIds),
    clientId: ctx.caller?.via === 'client-id' ? (ctx.caller.clientId?.clientId ?? null) : null,
    orchestratorId: orchestrator?.pricing.orchestratorId ?? null,
    orchestratorFees: (orchestrator?.pricing.fees ?? []).flatMap((itemFees, i) =>
      itemFees.map((f) => ({
        requestId: requests[i]!.requestId,
        configId: f.configId,
        feeBearer: f.feeBearer,
        amount: fromBaseUnits(f.units, currencyOf(requests[i]!.paymentCurrency).decimals),
        address: f.address,
      })),
    ),
    feePlan: pricedFeePlan(ctx, {
      network: first.network,
      flow: options.flow,
      grossAmounts:
        orchestrator?.grossAmounts ??
        requests.map((r) => ({ amount: r.amount, currency: r.paymentCurrency })),
      fee,
      pricing: orchestrator?.pricing,
    }),
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + LINK_LIFETIME_MS).toISOString(),
    completedAt: null,
    payerAddress: null,
    combinedInto: null,
    intents: [],
  })
}
/** The 201 every create endpoint answers. */
export function createdBody(request: NeutralRequest, link: SecurePaymentRecord) {
  return {
    requestIds: link.requestIds,
    securePaymentUrl: securePaymentUrl(request, link.token),
    token: link.token,
    feePlan: link.feePlan,
  }
}

/** Marks a link completed (once), with the wallet that paid. */
export async function completeLink(
  world: World,
  link: SecurePaymentRecord,
  payer: string | null,
): Promise<void> {
  if (link.status === 'completed') return
  await securePaymentState(world).securePayments.update(link.token, (draft) => {
    draft.status = 'completed'
    draft.completedAt = world.clock.now().toISOString()
    draft.payerAddress ??= payer
  })
}

/** The link a request belongs to (the newest, when a single payout was later combined into a batch). */
export function linkOfRequest(world: World, requestId: string): SecurePaymentRecord | undefined {
  return securePaymentState(world)
    .securePayments.all()
    .findLast((l) => l.requestIds.includes(requestId) && l.combinedInto === null)
}

/** Whether `wallet` may pay this link (allowedPayerAddresses, when set). */
export function payerAllowed(link: SecurePaymentRecord, wallet: string): boolean {
  return link.allowedPayerAddresses === null || link.allowedPayerAddresses.includes(wallet.toLowerCase())
}

/** Refuses a payer the link does not allow (403). */
export function checkPayer(link: SecurePaymentRecord, wallet: string | undefined): void {
  if (wallet && !payerAllowed(link, wallet))
    throw new SecurePaymentForbiddenError('This wallet is not allowed to pay this secure payment')
}

/** The keyed lookup: the caller's own link for this request, or 404. */
export function linkForRequest(ctx: Ctx, requestId: string): SecurePaymentRecord {
  const link = linkOfRequest(ctx.world, requestId.toLowerCase())
  if (!link) throw new SecurePaymentNotFoundError('No secure payment found for this request ID')
  return link
}
