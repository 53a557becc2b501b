import { z } from 'zod'
import { routesUsing } from '../../contract/route.ts'
import type { SecureServices } from './context.ts'
import { createSecurePayment } from './create.ts'
import { displayData, lookupBody } from './display.ts'
import { previewFeePlan } from './fee-plan.ts'
import { recordIntent } from './intent.ts'
import { createdBody, linkForRequest, payableLink, recordableLink, securePaymentUrl } from './model.ts'
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
  CreatedLink,
  CreateSecurePaymentBody,
  FeePlan,
  FeePreviewBody,
  IntentBody,
  MulticallPayoutBody,
  PayoutSecurePaymentBody,
  RefreshStepBody,
  TokenQuery,
  TronBroadcastBody,
} from './schema.ts'
import { broadcastTronStep } from './tron.ts'

const Token = z.object({ token: z.string().min(1) })

/**
 * `/v2/secure-payments` (V2 0.13.0): links are created with the tenant's credential (API key or client ID); the
 * routes under a token are public in the sandbox: the token is the credential (the page has no client ID).
 */

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
    summary: 'The secure payment a request belongs to',
    statuses: [200, 404],
    query: z.object({ requestId: z.string().min(1) }),
    handler: (ctx, { query, request }) => ({
      status: 200,
      body: lookupBody(ctx, ctx.world, linkForRequest(ctx, query.requestId), request),
    }),
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
    credentials: ['api-key', 'client-id', 'session'],
    surface: 'api',
    summary: 'The fee plan creation would compute for an amount and currency',
    statuses: [200],
    body: FeePreviewBody,
    responses: { 200: FeePlan },
    handler: (ctx, { body }) => ({ status: 200, body: previewFeePlan(ctx, body) }),
  }),
  defineRoute({
    method: 'GET',
    path: '/v2/secure-payments/:token',
    credentials: ['public'],
    surface: 'api',
    summary: 'Display data of a link (404 unknown, 409 completed, 403 expired or combined)',
    statuses: [200, 403, 404, 409],
    params: Token,
    query: TokenQuery,
    handler(ctx, { params }) {
      const multicall = payableMulticall(ctx, params.token)
      if (multicall) return { status: 200, body: multicall.state }
      const { world, link } = payableLink(ctx, params.token)
      return { status: 200, body: displayData(ctx, world, link) }
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v2/secure-payments/:token/pay',
    credentials: ['public'],
    surface: 'api',
    summary: "Calldata of a link's payment on the local chain (with chain + token: the cross-chain intent)",
    statuses: [200, 403, 404, 409],
    params: Token,
    query: TokenQuery,
    async handler(ctx, { params, query }) {
      const multicall = payableMulticall(ctx, params.token)
      if (multicall) return { status: 200, body: await multicallCalldata(ctx, multicall, query) }
      const { world, link } = payableLink(ctx, params.token)
      return { status: 200, body: await securePaymentCalldata(ctx, world, link, query) }
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v2/secure-payments/:token/intent',
    credentials: ['public'],
    surface: 'api',
    summary: 'Record the source-side execution of a link (the detector then confirms the payment)',
    statuses: [200, 403, 404, 409],
    params: Token,
    body: IntentBody,
    async handler(ctx, { params, body }) {
      const { world, link, alreadyPaid } = recordableLink(ctx, params.token, body.txHash)
      return { status: 200, body: await recordIntent(ctx, world, link, body, alreadyPaid) }
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v2/secure-payments/:token/refresh-step-transaction',
    credentials: ['public'],
    surface: 'api',
    summary: "A bridge step's transaction with a fresh deadline",
    statuses: [200, 403, 404, 409],
    params: Token,
    body: RefreshStepBody,
    async handler(ctx, { params, body }) {
      const { world, link } = payableLink(ctx, params.token)
      return { status: 200, body: await refreshStep(ctx, world, link, body.step) }
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v2/secure-payments/:token/tron/broadcast',
    credentials: ['public'],
    surface: 'api',
    summary:
      'TRON broadcast: a signed step of the link (checked against the steps it expects of the signer), sent sponsored',
    statuses: [200, 400, 403, 404, 409],
    params: Token,
    body: TronBroadcastBody,
    async handler(ctx, { params, body }) {
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
