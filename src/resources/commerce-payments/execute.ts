// Commerce payments' execute operations: the API operator sends the planned escrow call itself.
import type { Address, Hex } from 'viem'
import { commerceEscrowAbi, revertReason } from '../../chain/index.ts'
import { waitFor } from '../../contract/wait.ts'
import { planAuthorize, planCapture, planVoid } from './calldata.ts'
import { CommerceTermsError } from './errors.ts'
import { type CommerceCtx, getCommercePayment, readHold, sameAddress, statusBody } from './model.ts'
import type { CaptureBody } from './schema.ts'

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
