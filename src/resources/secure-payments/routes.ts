import { z } from 'zod'
import type { Caller } from '../../contract/caller.ts'
import { routesUsing } from '../../contract/route.ts'
import type { SecureServices } from './context.ts'
import { createSecurePayment } from './create.ts'
import { displayData, lookupBody } from './display.ts'
import { SecurePaymentNotFoundError } from './errors.ts'
import { previewFeePlan } from './fee-plan.ts'
import { submitGaslessPermit } from './gasless.ts'
import { recordIntent } from './intent.ts'
import {
  checkOwner,
  checkSafeInProgress,
  createdBody,
  findLink,
  linkForRequest,
  listLinks,
  payableLink,
  recordableLink,
  securePaymentUrl,
} from './model.ts'
import { multicallCalldata, refreshStep, securePaymentCalldata } from './pay.ts'
import {
  createBatchPayoutLink,
  createMulticall,
  createPayoutLink,
  multicallState,
  payableMulticall,
} from './payouts.ts'
import {
  BatchPayoutLinkBody,
  CalldataBody,
  CreatedLink,
  CreateSecurePaymentBody,
  FeePlan,
  FeePreviewBody,
  IntentBody,
  MulticallPayoutBody,
  PayoutSecurePaymentBody,
  PermitBody,
  RefreshStepBody,
  SecurePaymentListQuery,
  TokenQuery,
  TronBroadcastBody,
} from './schema.ts'
import { broadcastTronStep } from './tron.ts'
import { broadcastTronBatchStep } from './tron-batch.ts'
import { withPlainValues } from './values.ts'

const Token = z.object({ token: z.string().min(1) })

/**
 * `/v2/secure-payments` (V2 0.13.0 and api-reference/secure-payments.mdx): links are created with the tenant's
 * credential (API key, client ID or session); the routes under a token take `x-client-id` (+ Origin) or the API key
 * of the account that created the link (401 for any other), and answer transaction values in the shapes the
 * reference prints (values.ts). The sandbox's own page reads the same answers through its public routes
 * (page-routes.ts), as the hosted page is the service's own client.
 */

/** What the token routes accept: the link's own account, by client ID (the documents) or API key (their examples). */
const TOKEN_CREDENTIALS: ['api-key', 'client-id'] = ['api-key', 'client-id']

/** The caller of the sandbox's own page routes (the page is the sandbox's client: no owner check). */
export const SANDBOX_PAGE = 'sandbox-page'

/** `GET /{token}`: a multicall payout's state or a link's display data. */
export function showToken(ctx: SecureServices, token: string, caller: Caller | null | typeof SANDBOX_PAGE) {
  const multicall = payableMulticall(ctx, token)
  if (multicall) {
    if (caller !== SANDBOX_PAGE) checkOwner(caller, multicall.world)
    return multicall.state
  }
  const { world, link } = payableLink(ctx, token)
  if (caller !== SANDBOX_PAGE) checkOwner(caller, world)
  checkSafeInProgress(ctx, world, link)
  return displayData(ctx, world, link)
}

/** `GET /{token}/pay`: the calldata, values in the documented shapes (0 same-chain and batch, "0x0" cross-chain). */
export async function payToken(
  ctx: SecureServices,
  token: string,
  query: TokenQuery,
  caller: Caller | null | typeof SANDBOX_PAGE,
) {
  const multicall = payableMulticall(ctx, token)
  if (multicall) {
    if (caller !== SANDBOX_PAGE) checkOwner(caller, multicall.world)
    return withPlainValues(await multicallCalldata(ctx, multicall, query), 'number')
  }
  const { world, link } = payableLink(ctx, token)
  if (caller !== SANDBOX_PAGE) checkOwner(caller, world)
  checkSafeInProgress(ctx, world, link)
  const answer = await securePaymentCalldata(ctx, world, link, query)
  return withPlainValues(
    answer,
    'routeType' in answer.metadata && answer.metadata.routeType === 'crosschain' ? 'hex' : 'number',
  )
}

const defineRoute = routesUsing<SecureServices>()

export const securePaymentRoutes = [
  defineRoute({
    method: 'POST',
    path: '/v2/secure-payments',
    credentials: ['api-key', 'client-id', 'session', 'orchestrator-key'],
    surface: 'api',
    summary: 'Create a secure payment link for requests (by payee destination, or payee + currency)',
    statuses: [201, 404],
    body: CreateSecurePaymentBody,
    responses: { 201: CreatedLink },
    async handler(ctx, { body, request }) {
      return { status: 201, body: createdBody(request, await createSecurePayment(ctx, body)) }
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v2/secure-payments',
    credentials: ['api-key', 'client-id', 'session'],
    surface: 'api',
    summary: "The secure payment a request belongs to (requestId), or the caller's links through the filters",
    statuses: [200, 404],
    query: SecurePaymentListQuery,
    handler(ctx, { query, request }) {
      const { requestId, ...filters } = query
      // the documented lookup answers one link; the filters alone list the caller's links
      if (requestId && Object.values(filters).every((v) => v === undefined))
        return { status: 200, body: lookupBody(ctx, ctx.world, linkForRequest(ctx, requestId), request) }
      const links = listLinks(ctx, query)
      if (requestId && links.length === 0)
        throw new SecurePaymentNotFoundError('No secure payment found for this request ID')
      if (requestId) return { status: 200, body: lookupBody(ctx, ctx.world, links[0]!, request) }
      const securePayments = links.map((l) => lookupBody(ctx, ctx.world, l, request))
      return { status: 200, body: { securePayments, total: securePayments.length } }
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v2/secure-payments/payouts',
    credentials: ['api-key', 'client-id', 'session', 'orchestrator-key'],
    surface: 'api',
    summary: 'Create a payout link (the creator pays a recipient)',
    statuses: [201],
    body: PayoutSecurePaymentBody,
    responses: { 201: CreatedLink },
    async handler(ctx, { body, request }) {
      return { status: 201, body: createdBody(request, await createPayoutLink(ctx, body)) }
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v2/secure-payments/batch-payouts',
    credentials: ['api-key', 'client-id', 'session'],
    surface: 'api',
    summary: 'Combine pending payout links into one batch link (the combined tokens stop working)',
    statuses: [201, 404],
    body: BatchPayoutLinkBody,
    responses: { 201: CreatedLink },
    async handler(ctx, { body, request }) {
      return { status: 201, body: createdBody(request, await createBatchPayoutLink(ctx, body)) }
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v2/secure-payments/multicall-payouts',
    credentials: ['api-key', 'client-id', 'session', 'orchestrator-key'],
    surface: 'api',
    summary: 'Select pending payout links, in order, for one multicall payout',
    statuses: [201, 404],
    body: MulticallPayoutBody,
    async handler(ctx, { body, request }) {
      const created = await createMulticall(ctx, body)
      return { status: 201, body: { ...created, securePaymentUrl: securePaymentUrl(request, created.token) } }
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v2/secure-payments/multicall-payouts/:token',
    credentials: ['api-key', 'client-id', 'session'],
    surface: 'api',
    summary: 'A multicall payout and the state of each child link',
    statuses: [200, 404],
    params: Token,
    handler: (ctx, { params }) => ({ status: 200, body: multicallState(ctx, params.token) }),
  }),
  defineRoute({
    method: 'POST',
    path: '/v2/secure-payments/fees/preview',
    // the orchestrator pair (x-orchestrator-key + the x-client-id it linked) previews its orchestrator fees
    credentials: ['api-key', 'client-id', 'session', 'orchestrator-key'],
    surface: 'api',
    summary:
      'The fee plan creation would compute for an amount and currency (with the orchestrator pair: its orchestrator fees)',
    statuses: [200],
    body: FeePreviewBody,
    responses: { 200: FeePlan },
    handler: (ctx, { body }) => ({ status: 200, body: previewFeePlan(ctx, body) }),
  }),
  defineRoute({
    method: 'GET',
    path: '/v2/secure-payments/:token',
    credentials: TOKEN_CREDENTIALS,
    surface: 'api',
    summary:
      'Display data of a link (404 unknown, 409 completed, 403 expired or combined, 401 another account)',
    statuses: [200, 400, 401, 403, 404, 409, 423],
    params: Token,
    query: TokenQuery,
    handler: (ctx, { params }) => ({ status: 200, body: showToken(ctx, params.token, ctx.caller) }),
  }),
  defineRoute({
    method: 'GET',
    path: '/v2/secure-payments/:token/pay',
    credentials: TOKEN_CREDENTIALS,
    surface: 'api',
    summary: "Calldata of a link's payment on the local chain (with chain + token: the cross-chain intent)",
    statuses: [200, 400, 401, 403, 404, 409, 423],
    params: Token,
    query: TokenQuery,
    async handler(ctx, { params, query }) {
      return { status: 200, body: await payToken(ctx, params.token, query, ctx.caller) }
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v2/secure-payments/:token/calldata',
    credentials: TOKEN_CREDENTIALS,
    surface: 'api',
    summary: "Calldata of a link for the payer's chosen wallet, chain and token (what /pay answers for them)",
    statuses: [200, 401, 403, 404, 409, 423],
    params: Token,
    body: CalldataBody,
    async handler(ctx, { params, body }) {
      return { status: 200, body: await payToken(ctx, params.token, body, ctx.caller) }
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v2/secure-payments/:token/intent',
    credentials: TOKEN_CREDENTIALS,
    surface: 'api',
    summary:
      'Record the source-side execution of a link: txHash, or a Safe transaction (safeTxHash: 423 until it executes)',
    statuses: [200, 400, 401, 403, 404, 409],
    params: Token,
    body: IntentBody,
    async handler(ctx, { params, body }) {
      const { world, link, alreadyPaid } = recordableLink(ctx, params.token, body.txHash)
      checkOwner(ctx.caller, world)
      return { status: 200, body: await recordIntent(ctx, world, link, body, alreadyPaid) }
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v2/secure-payments/:token/refresh-step-transaction',
    credentials: TOKEN_CREDENTIALS,
    surface: 'api',
    summary: "A bridge step's transaction with a fresh deadline",
    statuses: [200, 401, 403, 404, 409],
    params: Token,
    body: RefreshStepBody,
    async handler(ctx, { params, body }) {
      const { world, link } = payableLink(ctx, params.token)
      checkOwner(ctx.caller, world)
      return { status: 200, body: withPlainValues(await refreshStep(ctx, world, link, body.step), 'hex') }
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v2/secure-payments/:token/permit',
    credentials: TOKEN_CREDENTIALS,
    surface: 'api',
    summary:
      "Gasless approval (EIP-2612): the payer's signed permit of /pay's approvalPermitPayload, submitted on chain by the sandbox",
    statuses: [200, 400, 401, 403, 404, 409],
    params: Token,
    body: PermitBody,
    async handler(ctx, { params, body }) {
      const { world, link } = payableLink(ctx, params.token)
      checkOwner(ctx.caller, world)
      return { status: 200, body: await submitGaslessPermit(ctx, world, link, body) }
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v2/secure-payments/:token/tron/broadcast',
    credentials: TOKEN_CREDENTIALS,
    surface: 'api',
    summary:
      'TRON broadcast: a signed step of the link (checked against the steps it expects of the signer), sent sponsored',
    statuses: [200, 400, 401, 403, 404, 409],
    params: Token,
    body: TronBroadcastBody,
    async handler(ctx, { params, body }) {
      // a tron_batch multicall payout's steps (tron-batch.ts)
      const multicall = payableMulticall(ctx, params.token)
      if (multicall) {
        checkOwner(ctx.caller, multicall.world)
        return { status: 200, body: await broadcastTronBatchStep(ctx, multicall, body.signedTransaction) }
      }
      const found = findLink(ctx, params.token)
      if (!found) throw new SecurePaymentNotFoundError()
      checkOwner(ctx.caller, found.world)
      const reply = await broadcastTronStep(
        ctx,
        params.token,
        body.signedTransaction,
        (world, link, wallet) => securePaymentCalldata(ctx, world, link, { wallet: wallet as `0x${string}` }),
      )
      return { status: 200, body: reply }
    },
  }),
]
