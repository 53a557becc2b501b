// The Secure Payment Page behind securePaymentUrl, and the sandbox endpoints it calls: the link's display data and
// calldata (the answers of the API's token routes, which want the link owner's x-client-id: the page is the
// sandbox's own client, as the hosted page is the service's), the payer's steps (user events, access check) and
// the built-in test wallet.
// The test wallet signs server-side: one per link owner's key, derived from the deployment's secret and refilled
// before each use (test-wallet.ts), whose transactions the sandbox sends through the chain (one at a time per
// chain; each of a link's transactions once: test-wallet-sends.ts); no key ever reaches the browser.

import { z } from 'zod'
import { type ApiTransaction, type LiveChain, sendApiTransactions, serialQueue } from '../../chain/index.ts'
import { AnyAddress } from '../../contract/primitives.ts'
import { routesUsing } from '../../contract/route.ts'
import { NotFoundError, SandboxError } from '../../contract/sandbox-error.ts'
import type { World } from '../../contract/world.ts'
import { toEvmAddress, toTronAddress } from '../../tron/index.ts'
import { reportScreening } from '../orchestrators/index.ts'
import type { SecureServices } from './context.ts'
import {
  SecurePaymentForbiddenError,
  SecurePaymentNotFoundError,
  SecurePaymentRequestError,
} from './errors.ts'
import { recordUserEvent } from './events.ts'
import { submitGaslessPermit } from './gasless.ts'
import { screenPayer } from './kyt.ts'
import { findLink, payableLink } from './model.ts'
import { SECURE_PAGE, securePageAsset } from './page/page.ts'
import { multicallCalldata, securePaymentCalldata } from './pay.ts'
import { findMulticall, payableMulticall } from './payouts.ts'
import { payToken, SANDBOX_PAGE, showToken } from './routes.ts'
import {
  PermitBody,
  type SecurePaymentRecord,
  TokenQuery,
  TronBroadcastBody,
  UserEventBody,
} from './schema.ts'
import { securePaymentState } from './tables.ts'
import { refillTestWallet, testWalletOf } from './test-wallet.ts'
import { sendOnce } from './test-wallet-sends.ts'
import { broadcastTronStep, testWalletTronSend } from './tron.ts'

const defineRoute = routesUsing<SecureServices>()

const queues = new WeakMap<LiveChain, ReturnType<typeof serialQueue>>()
function queueOf(chain: LiveChain) {
  let queue = queues.get(chain)
  if (!queue) {
    queue = serialQueue()
    queues.set(chain, queue)
  }
  return queue
}

/** The links behind a page token: the link itself, or a multicall payout's children (404 for neither). */
function pageLinks(shared: SecureServices, token: string): { world: World; links: SecurePaymentRecord[] } {
  const found = findLink(shared, token)
  if (found) return { world: found.world, links: [found.link] }
  const multicall = findMulticall(shared, token)
  if (!multicall) throw new SecurePaymentNotFoundError()
  const { world, record } = multicall
  return { world, links: record.childTokens.map((t) => securePaymentState(world).securePayments.get(t)!) }
}

/**
 * The page reads /pay for the link owner's test wallet before it pays: the wallet is topped up first, so the answer
 * (its balance check) sees what the wallet will pay with. Any other wallet is left as it is.
 */
async function refillBeforeRead(ctx: SecureServices, token: string, wallet: string): Promise<void> {
  const found = findLink(ctx, token) ?? findMulticall(ctx, token)
  if (!found) return
  const { world, links } = pageLinks(ctx, token)
  const chain = ctx.chains.get(links[0]!.network)
  if (!chain) return
  const own = testWalletOf(chain, world.tenant).address
  if (toEvmAddress(wallet).toLowerCase() !== own.toLowerCase()) return
  await queueOf(chain)(() =>
    refillTestWallet(
      ctx,
      chain,
      own,
      links.map((l) => l.currency),
    ),
  )
}

/** Every transaction of a /pay answer (same-chain list, or a batch's approvals and its batchPayments). */
function transactionsOf(answer: object): ApiTransaction[] {
  const a = answer as {
    transactions?: ApiTransaction[]
    ERC20ApprovalTransactions?: ApiTransaction[]
    batchPaymentTransaction?: ApiTransaction
    orchestratorFeeTransactions?: ApiTransaction[]
  }
  return [
    ...(a.transactions ?? []),
    ...(a.ERC20ApprovalTransactions ?? []),
    ...(a.orchestratorFeeTransactions ?? []),
    ...(a.batchPaymentTransaction ? [a.batchPaymentTransaction] : []),
  ]
}

/** A transaction's value in wei (BigNumber JSON, a decimal or hex string, or a number); null when it is none. */
function weiOf(value: ApiTransaction['value']): bigint | null {
  try {
    return BigInt(typeof value === 'object' ? value.hex : value)
  } catch {
    return null
  }
}

const Transaction = z.object({
  to: AnyAddress,
  data: z.string().regex(/^0x[0-9a-fA-F]*$/),
  value: z
    .union([z.object({ hex: z.string() }), z.string(), z.number()])
    .refine((v) => weiOf(v) !== null, { message: 'value must be an integer amount of wei' }),
})

export const securePageRoutes = [
  defineRoute({
    method: 'GET',
    path: '/__sandbox/secure-payment',
    credentials: ['public'],
    surface: 'control',
    summary: 'The Secure Payment Page (securePaymentUrl)',
    statuses: [200],
    handler: () => ({ status: 200, body: SECURE_PAGE, contentType: 'text/html; charset=utf-8' }),
  }),
  defineRoute({
    method: 'GET',
    path: '/__sandbox/secure-payment/:asset',
    credentials: ['public'],
    surface: 'control',
    summary: "The page's script, style sheet and icon",
    statuses: [200, 404],
    params: z.object({ asset: z.string() }),
    handler(_ctx, { params }) {
      const asset = securePageAsset(params.asset)
      if (!asset) throw new NotFoundError(`Cannot GET /__sandbox/secure-payment/${params.asset}`)
      return { status: 200, body: asset.text, contentType: asset.contentType }
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/__sandbox/secure-payments/:token',
    credentials: ['public'],
    surface: 'control',
    summary: "The page's read of a link: what GET /v2/secure-payments/{token} answers its owner",
    statuses: [200, 403, 404, 409],
    params: z.object({ token: z.string().min(1) }),
    query: TokenQuery,
    handler: (ctx, { params }) => ({ status: 200, body: showToken(ctx, params.token, SANDBOX_PAGE) }),
  }),
  defineRoute({
    method: 'GET',
    path: '/__sandbox/secure-payments/:token/pay',
    credentials: ['public'],
    surface: 'control',
    summary: "The page's calldata of a link: what GET /v2/secure-payments/{token}/pay answers its owner",
    statuses: [200, 400, 403, 404, 409],
    params: z.object({ token: z.string().min(1) }),
    query: TokenQuery,
    async handler(ctx, { params, query }) {
      if (query.wallet) await refillBeforeRead(ctx, params.token, query.wallet)
      return { status: 200, body: await payToken(ctx, params.token, query, SANDBOX_PAGE) }
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/__sandbox/secure-payments/:token/permit',
    credentials: ['public'],
    surface: 'control',
    summary:
      "The page's gasless approval: what POST /v2/secure-payments/{token}/permit does for the link's owner (the payer's signed EIP-2612 permit, submitted on chain)",
    statuses: [200, 400, 403, 404, 409],
    params: z.object({ token: z.string().min(1) }),
    body: PermitBody,
    async handler(ctx, { params, body }) {
      const { world, link } = payableLink(ctx, params.token)
      return { status: 200, body: await submitGaslessPermit(ctx, world, link, body) }
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/__sandbox/secure-payments/:token/tron/broadcast',
    credentials: ['public'],
    surface: 'control',
    summary:
      "The page's TRON broadcast: what POST /v2/secure-payments/{token}/tron/broadcast does for the link's owner (a signed step of the link, sent sponsored)",
    statuses: [200, 400, 403, 404, 409],
    params: z.object({ token: z.string().min(1) }),
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
  defineRoute({
    method: 'POST',
    path: '/__sandbox/secure-payments/:token/user-events',
    credentials: ['public'],
    surface: 'control',
    summary:
      "The page reports the payer's step (secure_payment.user_event; access_rejected for a refused wallet)",
    statuses: [201, 403, 404],
    params: z.object({ token: z.string().min(1) }),
    body: UserEventBody,
    async handler(ctx, { params, body }) {
      // found, not payable: the payer's last steps may arrive after the detector completed the link
      const { world, links } = pageLinks(ctx, params.token)
      // a KYT link screens the wallet as it connects: a flagged one never reaches the sign step (403)
      if (body.userEvent === 'wallet_connected')
        for (const link of links) await screenPayer(ctx, world, link, body.walletAddress)
      const accepted = links.map((link) => recordUserEvent(ctx, world, link, body))
      // a linked client ID's screening plan reports its result to the orchestrator (once per wallet)
      for (const [i, link] of links.entries())
        await reportScreening(ctx, {
          clientId: link.clientId,
          token: link.token,
          wallet: body.walletAddress,
          approved: accepted[i]!,
        })
      if (accepted.includes(false))
        throw new SecurePaymentForbiddenError('This wallet is not allowed to pay this secure payment')
      return { status: 201, body: { recorded: body.userEvent } }
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/__sandbox/secure-payments/:token/chain',
    credentials: ['public'],
    surface: 'control',
    summary: "The link's chain for the page: its id, whether the sandbox runs it, the test wallet's address",
    statuses: [200, 404],
    params: z.object({ token: z.string().min(1) }),
    handler(ctx, { params }) {
      const { world, links } = pageLinks(ctx, params.token)
      const link = links[0]!
      const chain = ctx.chains.get(link.network)
      const testWallet = chain ? testWalletOf(chain, world.tenant).address : null
      const chainId = chain?.chainId ?? ctx.currencies.byId(link.currency)?.chainId ?? 0
      return {
        status: 200,
        body: {
          network: link.network,
          chainId,
          live: chain !== undefined,
          rpcPath: '/rpc',
          // a Tron link: the wallet is a TronLink-style one (window.tronWeb), its node the sandbox's /tron
          ...(link.network === 'tron' ? { tron: true, fullNodePath: '/tron' } : {}),
          testWallet: testWallet && link.network === 'tron' ? toTronAddress(testWallet) : testWallet,
        },
      }
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/__sandbox/secure-payments/:token/test-wallet/send',
    credentials: ['public'],
    surface: 'control',
    summary: "The test wallet sends one of the link's transactions and waits for its receipt",
    statuses: [201, 400, 403, 404, 409],
    params: z.object({ token: z.string().min(1) }),
    body: z.object({ transaction: Transaction }),
    async handler(ctx, { params, body }) {
      const tron = findLink(ctx, params.token)
      if (tron?.link.network === 'tron') {
        const chain = ctx.chains.get('tron')
        if (!chain) throw new SecurePaymentRequestError('The sandbox does not run tron: no test wallet')
        const wallet = testWalletOf(chain, tron.world.tenant)
        await refillTestWallet(ctx, chain, wallet.address, [tron.link.currency])
        const sent = await sendOnce(
          chain,
          params.token,
          `${body.transaction.to}|${body.transaction.data}`,
          () =>
            testWalletTronSend(
              ctx,
              params.token,
              body.transaction,
              wallet.privateKey,
              (world, link, wallet) =>
                securePaymentCalldata(ctx, world, link, { wallet: wallet as `0x${string}` }),
            ),
        )
        return { status: 201, body: { txHash: sent.txid, blockNumber: null } }
      }
      const multicall = payableMulticall(ctx, params.token)
      const { world, link } = multicall
        ? { world: multicall.world, link: pageLinks(ctx, params.token).links[0]! }
        : payableLink(ctx, params.token)
      const chain = ctx.chains.get(link.network)
      if (!chain)
        throw new SecurePaymentRequestError(`The sandbox does not run ${link.network}: no test wallet`)
      const { address, privateKey: key } = testWalletOf(chain, world.tenant)
      // the test wallet signs only what /pay answers for this link and this wallet now (approval or payment)
      const expected = transactionsOf(
        multicall
          ? await multicallCalldata(ctx, multicall, { wallet: address })
          : await securePaymentCalldata(ctx, world, link, { wallet: address }),
      )
      const tx = body.transaction
      const sameAs = (e: ApiTransaction) =>
        e.to.toLowerCase() === tx.to.toLowerCase() && e.data === tx.data && weiOf(e.value) === weiOf(tx.value)
      if (!expected.some(sameAs))
        throw new SecurePaymentRequestError(
          'The test wallet only sends the transactions /pay returns for this link',
        )
      const currencies = pageLinks(ctx, params.token).links.map((l) => l.currency)
      const sending = `${tx.to.toLowerCase()}|${tx.data}|${weiOf(tx.value)}`
      try {
        const [receipt] = await sendOnce(chain, params.token, sending, () =>
          queueOf(chain)(async () => {
            await refillTestWallet(ctx, chain, address, currencies)
            return sendApiTransactions(chain, key, [body.transaction])
          }),
        )
        return {
          status: 201,
          body: { txHash: receipt!.transactionHash, blockNumber: Number(receipt!.blockNumber) },
        }
      } catch (error) {
        if (error instanceof SandboxError) throw error
        throw new SecurePaymentRequestError(
          `The test wallet's transaction failed: ${(error as Error).message.split('\n')[0]}`,
        )
      }
    },
  }),
]
