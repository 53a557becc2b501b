// `POST /v2/secure-payments/{token}/intent`: the payer's record of the source-side execution. A transaction hash
// (same chain) starts listening: the detector confirms the payment. The sandbox's cross-chain path is the signed
// intent of /pay (sandbox extension: `paymentIntentId` + `signedPaymentIntent`, and `signedApprovalPermit` when
// /pay asked for one), handed to the payment-intents model, whose operator settles it on the destination chain.

import type { World } from '../../contract/world.ts'
import { intentState, sendPaymentIntent } from '../payment-intents/index.ts'
import { startListening } from '../requests/index.ts'
import { inWorld } from '../services.ts'
import type { SecureServices } from './context.ts'
import { SecurePaymentRequestError } from './errors.ts'
import { checkPayer, linkRequests } from './model.ts'
import type { IntentBody, SecurePaymentRecord } from './schema.ts'
import { securePaymentState } from './tables.ts'

/** Records an execution of the link (and sends a signed cross-chain intent); answers the documented body. */
export async function recordIntent(
  shared: SecureServices,
  world: World,
  link: SecurePaymentRecord,
  body: IntentBody,
  /** the link was already completed by this transaction: recorded, nothing left to listen for */
  alreadyPaid = false,
) {
  checkPayer(link, body.payerAddress)
  if (body.safePaymentDeadline !== undefined && !body.safeTxHash)
    throw new SecurePaymentRequestError('safePaymentDeadline can only be sent alongside safeTxHash')
  const records = linkRequests(world, link)
  const owner = inWorld(shared, world)
  let intentId: string
  if (body.signedPaymentIntent) {
    if (!body.paymentIntentId)
      throw new SecurePaymentRequestError('paymentIntentId is required with signedPaymentIntent')
    const issued = intentState(world).paymentIntents.get(body.paymentIntentId)
    if (!issued || !link.requestIds.includes(issued.requestId))
      throw new SecurePaymentRequestError(
        `Payment intent ${body.paymentIntentId} was not issued for this secure payment`,
      )
    await sendPaymentIntent(owner, body.paymentIntentId, {
      signedPaymentIntent: body.signedPaymentIntent,
      ...(body.signedApprovalPermit ? { signedApprovalPermit: body.signedApprovalPermit } : {}),
    })
    intentId = body.paymentIntentId
  } else {
    // api-features/safe-multisig-payments.mdx: "Exactly one of `txHash` or `safeTxHash` must be provided."
    if (!body.txHash === !body.safeTxHash)
      throw new SecurePaymentRequestError('Exactly one of txHash or safeTxHash must be provided')
    // the same transaction reported twice is one execution: the same intent id, recorded once
    const hash = (body.txHash ?? body.safeTxHash)!.toLowerCase()
    intentId =
      link.intents.find((i) => (i.safeTxHash ?? i.txHash)?.toLowerCase() === hash)?.intentId ??
      shared.ids.ulid(world.clock.now().getTime())
  }
  const known = link.intents.some((i) => i.intentId === intentId)
  for (const record of records) await startListening(owner, record)
  await securePaymentState(world).securePayments.update(link.token, (draft) => {
    if (!known)
      draft.intents.push({
        intentId,
        txHash: body.txHash ?? null,
        ...(body.safeTxHash ? { safeTxHash: body.safeTxHash } : {}),
        ...(body.safePaymentDeadline !== undefined ? { safePaymentDeadline: body.safePaymentDeadline } : {}),
        chain: body.chain,
        // the sandbox's only cross-chain execution is the signed intent; a hash is paid on the link's own chain
        executionKind: body.signedPaymentIntent ? 'evm_cross_chain' : 'evm_same_chain',
      })
    if (body.payerAddress) draft.payerAddress ??= body.payerAddress
  })
  return {
    intentId,
    paymentReference: records[0]!.paymentReference,
    ...(body.txHash ? { txHash: body.txHash } : {}),
    ...(body.safeTxHash ? { safeTxHash: body.safeTxHash } : {}),
    ...(body.safePaymentDeadline !== undefined ? { safePaymentDeadline: body.safePaymentDeadline } : {}),
    isListening: !alreadyPaid,
    ...(body.payerAddress ? { payerAddress: body.payerAddress } : {}),
  }
}
