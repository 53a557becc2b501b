// Commerce payments' escrow calls: the authorization calldata (which creates the request and stores the terms) and
// the plans of authorize, capture, void and refund, each checked against the hold the escrow holds now. The routes
// answer a plan as calldata (actionCalldata); execute.ts has the API operator send it.
import { type Address, encodeFunctionData, getAddress, type Hex } from 'viem'
import { COMMERCE_ESCROW, chainTime, commerceEscrowAbi, erc20Abi } from '../../chain/index.ts'
import { bigNumberJson, fromBaseUnits, toBaseUnits } from '../../contract/amounts.ts'
import { clientIdState } from '../client-ids/index.ts'
import { createRequest } from '../requests/index.ts'
import { CommerceStateError, CommerceTermsError } from './errors.ts'
import {
  type CommerceCtx,
  getCommercePayment,
  liveChainFor,
  readHold,
  sameAddress,
  statusOf,
  terms,
} from './model.ts'
import type { AuthorizeCalldataBody, CaptureBody, CommercePaymentRecord, RefundBody } from './schema.ts'
import { commercePaymentState } from './tables.ts'

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
export async function planCapture(ctx: CommerceCtx, record: CommercePaymentRecord, body: CaptureBody) {
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
export async function planVoid(ctx: CommerceCtx, record: CommercePaymentRecord) {
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
export async function planAuthorize(ctx: CommerceCtx, record: CommercePaymentRecord): Promise<PlannedCall> {
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
