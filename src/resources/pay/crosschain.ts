// The cross-chain variant of the pay endpoints (legacy payment-intent flow, api-contract §4): when `chain` and
// `token` name another network or token than the request's, the answer is a Permit2 batch-witness intent to sign.
// Differences from the real service: the source and destination stablecoins are taken at 1:1 (no quote); the
// cross-chain fee is a flat 0.1% as in the service's example; the typed data names the sandbox's own contracts and
// keys (SandboxPermit2 at Permit2's address, the sandbox operator as spender, operator and treasury); both chains must
// be running in the sandbox, since the sandbox settles the intent for real. Fee legs (a secure payment link's
// orchestrator fees, or those a request captured at creation) are further `permitted` entries, signed on the source
// chain with the payment and paid by the operator to their addresses on the destination.
import { type Address, encodeFunctionData, keccak256, maxUint256, toHex } from 'viem'
import {
  chainTime,
  eip2612Nonce,
  erc20Abi,
  type LiveChain,
  PERMIT2_ADDRESS,
  permit2NonceFree,
} from '../../chain/index.ts'
import { feeUnits, percentageOf } from '../../contract/amounts.ts'
import { checksum as getAddress } from '../../contract/checksum.ts'
import { effectiveFee } from '../client-ids/index.ts'
import type { CurrencyFixture } from '../currencies/index.ts'
import { intentState, intentTypedData, permitTypedData } from '../payment-intents/index.ts'
import type { RequestRecord } from '../requests/index.ts'
import { startListening } from '../requests/index.ts'
import type { Uses } from '../services.ts'
import { NO_FEE_ADDRESS } from './calldata.ts'
import { CROSSCHAIN_FEE_PERCENT } from './crosschain-fee.ts'
import { type CrosschainQuery, refuseCrosschain } from './crosschain-source.ts'
import { PaymentNotPossibleError, payFieldError } from './errors.ts'
import type { CrosschainPayResponse } from './schema.ts'

type Ctx = Uses<
  | 'chains'
  | 'conversion'
  | 'currencies'
  | 'events'
  | 'ids'
  | 'offrampAddress'
  | 'operator'
  | 'paymentReferences'
  | 'worlds'
>

/** The operator id the witness carries (a fixed identifier of the sandbox operator). */
export const OPERATOR_ID = keccak256(toHex('request-sandbox:crosschain-operator'))
const INTENT_LIFETIME_S = 3600
const PROCESSING_DELAY_S = 5 * 3600

/** `value` scaled from `from` decimals to `to` decimals, rounded up (the payer never sends less than owed). */
function rescale(value: bigint, from: number, to: number): bigint {
  if (to >= from) return value * 10n ** BigInt(to - from)
  const divisor = 10n ** BigInt(from - to)
  return (value + divisor - 1n) / divisor
}

/**
 * Picks an unused Permit2 nonce: the issue time in ms, as the service does, bumped past the nonces issued to this
 * wallet in any world (chains are shared by every tenant) and those already used on chain.
 */
async function intentNonce(ctx: Ctx, chain: LiveChain, wallet: Address, ms: number): Promise<bigint> {
  const taken = new Set<string>()
  for (const world of ctx.worlds.all()) {
    for (const intent of intentState(world).paymentIntents.all())
      if (intent.source.account === wallet) taken.add(intent.nonce)
  }
  let nonce = BigInt(ms)
  for (;;) {
    while (taken.has(nonce.toString())) nonce += 1n
    if (await permit2NonceFree(chain, wallet, nonce)) return nonce
    nonce += 1n
  }
}

/**
 * Issues a payment intent for paying `record` from `source` and answers it as the service's crosschain variant.
 * `amount` is what the payee receives, in the destination token's base units.
 */
export async function buildCrosschainPayment(
  ctx: Ctx,
  record: RequestRecord,
  query: CrosschainQuery,
  source: { network: string; currency: CurrencyFixture | undefined },
  amountOf: (currency: CurrencyFixture) => bigint,
  /** the request's own fee legs on `amount` (its payer-borne orchestrator fees), added to the query's */
  payerFees?: (destination: CurrencyFixture, amount: bigint) => { address: string; amount: bigint }[],
): Promise<CrosschainPayResponse> {
  const { world } = ctx
  const destination = ctx.currencies.byId(record.paymentCurrency)!
  refuseCrosschain(ctx, record, destination, source.network)
  if (query.clientUserId) {
    throw new PaymentNotPossibleError(
      'Crypto-to-fiat payments cannot be made crosschain: omit chain and token',
    )
  }
  const from = source.currency
  if (!from) throw new PaymentNotPossibleError(`${query.token} is not available on ${source.network}`)
  const walletInput = query.wallet ?? record.payer
  if (!walletInput) throw payFieldError('wallet', 'wallet is required for crosschain payments')
  const wallet = getAddress(walletInput)
  const amount = amountOf(destination)
  if (amount < 10n ** BigInt(destination.decimals)) {
    throw new PaymentNotPossibleError(
      `Crosschain payments must be of at least 1 ${destination.symbol} (expectedAmount less than 1 is rejected)`,
    )
  }
  const feeAsked = effectiveFee(ctx, query) // a client ID's own fee overrides the API-passed one, as same-chain
  const fee = feeUnits(amount, feeAsked.feePercentage)
  const feeAddress = feeAsked.feeAddress ? getAddress(feeAsked.feeAddress) : NO_FEE_ADDRESS
  const sourceChain = ctx.chains.get(source.network)!
  const destinationChain = ctx.chains.get(record.network)!
  const operator = ctx.operator!.address
  const token = getAddress(from.address!)
  const destinationToken = getAddress(destination.address!)

  const payment = rescale(amount, destination.decimals, from.decimals)
  const platformFee = rescale(fee, destination.decimals, from.decimals)
  const crosschainFee = percentageOf(payment, CROSSCHAIN_FEE_PERCENT)
  const feeLegs = [...(query.feeLegs ?? []), ...(payerFees?.(destination, amount) ?? [])].filter(
    (leg) => leg.amount > 0n,
  )
  const permitted = [
    payment,
    platformFee,
    crosschainFee,
    ...feeLegs.map((leg) => rescale(leg.amount, destination.decimals, from.decimals)),
  ]
  const total = permitted.reduce((a, b) => a + b, 0n)

  // Chain time can run ahead of this tenant's clock (another tenant advanced it): deadlines count from the later.
  const sourceTime = await chainTime(sourceChain)
  const nowMs = world.clock.now().getTime()
  const base = Math.max(Math.floor(nowMs / 1000), sourceTime)
  const deadline = base + INTENT_LIFETIME_S
  const nonce = await intentNonce(ctx, sourceChain, wallet, Math.max(nowMs, base * 1000))

  const typed = intentTypedData(sourceChain.chainId, {
    permitted: permitted.map((value) => ({ token, amount: value.toString() })),
    spender: operator,
    nonce: nonce.toString(),
    deadline: String(deadline),
    witness: {
      payment_type: 0,
      operator_data: { operatorId: OPERATOR_ID, operator, treasury_account: operator, fee: '0' },
      amount: total.toString(),
      source: { account: wallet, network_id: String(sourceChain.chainId), payment_token: token },
      destination: {
        account: getAddress(record.paymentAddress),
        network_id: String(destinationChain.chainId),
        payment_token: destinationToken,
      },
      processing_date: String(base + PROCESSING_DELAY_S),
      expires_at: String(deadline),
    },
  })
  const supportsEIP2612 = Boolean(from.permit)
  let approvalPermitPayload: string | null = null
  if (supportsEIP2612) {
    const permitNonce = await eip2612Nonce(sourceChain, token, wallet)
    const permit = permitTypedData({
      token,
      name: from.name,
      version: from.permit!,
      chainId: sourceChain.chainId,
      owner: wallet,
      nonce: permitNonce,
      deadline,
    })
    approvalPermitPayload = JSON.stringify(permit, null, 2)
  }
  const paymentIntent = JSON.stringify(typed, null, 2)
  const intent = await intentState(world).paymentIntents.insert({
    id: ctx.ids.ulid(nowMs),
    requestId: record.requestId,
    paymentReference: record.paymentReference,
    source: {
      network: source.network,
      chainId: sourceChain.chainId,
      currencyId: from.id,
      token,
      account: wallet,
    },
    destination: {
      network: record.network,
      chainId: destinationChain.chainId,
      currencyId: destination.id,
      token: destinationToken,
      account: getAddress(record.paymentAddress),
    },
    permitted: permitted.map(String),
    destinationAmount: amount.toString(),
    destinationFee: fee.toString(),
    feeAddress,
    ...(feeLegs.length
      ? {
          feeLegs: feeLegs.map((leg) => ({
            address: getAddress(leg.address),
            amount: leg.amount.toString(),
            txHash: null,
          })),
        }
      : {}),
    nonce: nonce.toString(),
    deadline,
    paymentIntent,
    supportsEIP2612,
    approvalPermitPayload,
    status: 'issued',
    intentSignature: null,
    permitSignature: null,
    failureReason: null,
    sourceTxHash: null,
    destinationTxHash: null,
    createdAt: new Date(nowMs).toISOString(),
    submittedAt: null,
  })
  await startListening(ctx, record)
  // As the service's examples show: the approval that does not apply is left out.
  return {
    paymentIntentId: intent.id,
    paymentIntent,
    ...(approvalPermitPayload
      ? { approvalPermitPayload }
      : {
          approvalCalldata: {
            to: token,
            data: encodeFunctionData({
              abi: erc20Abi,
              functionName: 'approve',
              args: [PERMIT2_ADDRESS, maxUint256],
            }),
            value: '0x0' as const,
          },
        }),
    metadata: { supportsEIP2612 },
  }
}
