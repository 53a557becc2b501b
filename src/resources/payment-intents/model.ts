// Sending a signed cross-chain payment intent (endpoints 10 and 11). The sandbox checks what the real service's
// contracts would check before anything moves: the intent's signature recovers to the paying wallet, nonce and
// deadline are the ones issued, the deadline has not passed, the intent was not sent before; an EIP-2612 permit,
// when sent, is checked the same way. Then the operator settles it for real (settle.ts).
// Differences from the real service: its checks and their messages are not documented; the sandbox answers 400 with
// the reason. Balance and allowance are not checked here but by the settlement, which fails with a
// `payment.failed` event as a bridge would (the send itself was accepted).
import { type Address, type Hex, isHex } from 'viem'
import { chainTime } from '../../chain/index.ts'
import { checksum as getAddress } from '../../contract/checksum.ts'
import type { Uses } from '../services.ts'
import { PaymentIntentNotFoundError, PaymentIntentRefusedError } from './errors.ts'
import type { PaymentIntentRecord, SendIntentBody, SignedData } from './schema.ts'
import { settleIntent } from './settle.ts'
import { intentState } from './tables.ts'
import {
  type IntentTypedData,
  type PermitTypedData,
  recoverIntentSigner,
  recoverPermitSigner,
} from './typed-data.ts'

type Ctx = Uses<'chains' | 'events' | 'operator'>

function sameNumber(given: string, expected: string): boolean {
  try {
    return BigInt(given) === BigInt(expected)
  } catch {
    return false
  }
}

function checkNonceAndDeadline(field: string, signed: SignedData, nonce: string, deadline: string) {
  if (!sameNumber(signed.nonce, nonce)) {
    throw new PaymentIntentRefusedError(
      `${field}.nonce ${signed.nonce} does not match the nonce issued with this payment intent (${nonce})`,
    )
  }
  if (!sameNumber(signed.deadline, deadline)) {
    throw new PaymentIntentRefusedError(
      `${field}.deadline ${signed.deadline} does not match the deadline issued with this payment intent (${deadline})`,
    )
  }
}

async function checkSigner(
  field: string,
  signature: string,
  recover: (signature: Hex) => Promise<Address>,
  wallet: Address,
): Promise<void> {
  let signer: Address
  try {
    if (!isHex(signature)) throw new Error('not a hex string')
    signer = await recover(signature)
  } catch (error) {
    throw new PaymentIntentRefusedError(
      `${field}.signature is not a valid signature: ${(error as Error).message}`,
    )
  }
  if (getAddress(signer) !== getAddress(wallet)) {
    throw new PaymentIntentRefusedError(
      `${field}.signature was signed by ${signer}, not by the paying wallet ${wallet}`,
    )
  }
}

async function checkSend(ctx: Ctx, intent: PaymentIntentRecord, body: SendIntentBody): Promise<void> {
  const wallet = intent.source.account as Address
  checkNonceAndDeadline(
    'signedPaymentIntent',
    body.signedPaymentIntent,
    intent.nonce,
    String(intent.deadline),
  )
  // The chain's time can be ahead of the tenant's clock (another tenant advanced it): the later one counts.
  const chain = ctx.chains.get(intent.source.network)
  const sourceTime = chain ? await chainTime(chain) : 0
  const now = Math.max(Math.floor(ctx.world.clock.now().getTime() / 1000), sourceTime)
  if (now > intent.deadline) {
    throw new PaymentIntentRefusedError(
      `Payment intent has expired: its deadline ${new Date(intent.deadline * 1000).toISOString()} has passed; get a new one from the pay endpoint`,
    )
  }
  const typed = JSON.parse(intent.paymentIntent) as IntentTypedData
  await checkSigner(
    'signedPaymentIntent',
    body.signedPaymentIntent.signature,
    (s) => recoverIntentSigner(typed, s),
    wallet,
  )
  const permit = body.signedApprovalPermit
  if (!permit) return
  if (!intent.approvalPermitPayload) {
    throw new PaymentIntentRefusedError(
      `${intent.source.currencyId} does not support EIP-2612: send approvalCalldata on ${intent.source.network} instead of a signedApprovalPermit`,
    )
  }
  const permitTyped = JSON.parse(intent.approvalPermitPayload) as PermitTypedData
  checkNonceAndDeadline(
    'signedApprovalPermit',
    permit,
    permitTyped.values.nonce,
    String(permitTyped.values.deadline),
  )
  await checkSigner(
    'signedApprovalPermit',
    permit.signature,
    (s) => recoverPermitSigner(permitTyped, s),
    wallet,
  )
}

/** Checks a signed intent, marks it accepted (once), and schedules its settlement on the chains. */
export async function sendPaymentIntent(
  ctx: Ctx,
  paymentIntentId: string,
  body: SendIntentBody,
): Promise<PaymentIntentRecord> {
  const { world } = ctx
  const intent =
    intentState(world).paymentIntents.get(paymentIntentId) ??
    intentState(world).paymentIntents.get(paymentIntentId.toUpperCase())
  if (!intent) throw new PaymentIntentNotFoundError()
  if (intent.status !== 'issued' || intentState(world).paymentIntentsInFlight.has(intent.id)) {
    throw new PaymentIntentRefusedError(
      `Payment intent ${intent.id} has already been sent; an intent can be used once (get a new one from the pay endpoint)`,
    )
  }
  // one intent pays a request: another of the same request sent, settling or settled (not failed) refuses this one,
  // so the payer, the payee and a secure payment link's fee legs are not paid twice
  const rival = intentState(world)
    .paymentIntents.all()
    .find(
      (other) =>
        other.id !== intent.id &&
        other.requestId === intent.requestId &&
        (other.status === 'accepted' ||
          other.status === 'completed' ||
          intentState(world).paymentIntentsInFlight.has(other.id)),
    )
  if (rival)
    throw new PaymentIntentRefusedError(
      `The request of payment intent ${intent.id} is already being paid by payment intent ${rival.id} (${rival.status})`,
    )
  intentState(world).paymentIntentsInFlight.add(intent.id)
  try {
    await checkSend(ctx, intent, body)
    const accepted = (await intentState(world).paymentIntents.update(intent.id, (draft) => {
      draft.status = 'accepted'
      draft.submittedAt = world.clock.now().toISOString()
      draft.intentSignature = body.signedPaymentIntent.signature
      draft.permitSignature = body.signedApprovalPermit?.signature ?? null
    }))!
    world.clock.schedule(world.clock.now(), `settle payment intent ${intent.id}`, () =>
      settleIntent(ctx, world, intent.id),
    )
    return accepted
  } finally {
    intentState(world).paymentIntentsInFlight.delete(intent.id)
  }
}
