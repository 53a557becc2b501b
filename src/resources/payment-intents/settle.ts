// Settles an accepted payment intent on the live chains, as the service's operator and bridge would:
// 1. source chain: submit the payer's EIP-2612 permit (if sent), then pull the permitted amounts through Permit2
//    (the sandbox's own SandboxPermit2 checks the payer's signature, nonce and deadline on chain) to the treasury;
// 2. destination chain: the bridged amount reaches the operator (minted); its fee legs (a secure payment link's
//    orchestrator fees) are transferred to their addresses first, then the payment goes to the payee through
//    ERC20FeeProxy with the request's payment reference, so the payment detector sees an ordinary payment.
// The outcome is what the service documents (api-features/webhooks-events.mdx, api-reference/webhooks.mdx): the
// detector's `payment.confirmed` once the destination payment is mined, or `payment.failed` with the documented
// fields. The steps in between are announced as `payment.processing` only in a world whose rules ask for it
// (`crosschainProgressEvents`, a sandbox addition: the service sends `payment.processing` for crypto-to-fiat only).
// Nothing is retried, but a settlement cut short by a restart (--state-dir) is resumed: what the chains already
// hold is recognised, not redone.
import type { Address, Hex } from 'viem'
import { feeProxyPayments, permit2NonceFree, revertReason } from '../../chain/index.ts'
import type { World } from '../../contract/world.ts'
import type { Services } from '../services.ts'
import type { PaymentIntentRecord } from './schema.ts'
import { intentState } from './tables.ts'
import { type IntentTypedData, type PermitTypedData, WITNESS_TYPE_STRING, witnessHash } from './typed-data.ts'

type Shared = Services<'chains' | 'events' | 'operator'>

/** A settlement step that failed for a reason the payer can fix (announced with this subStatus). */
class SettlementFailure extends Error {
  constructor(
    readonly subStatus: string,
    message: string,
  ) {
    super(message)
  }
}

/** The fields of the service's `payment.failed` example (api-reference/webhooks.mdx), `timestamp` as every event's. */
function documentedPayload(intent: PaymentIntentRecord) {
  return {
    requestId: intent.requestId,
    requestID: intent.requestId,
    paymentReference: intent.paymentReference,
    paymentProcessor: 'request-network',
  }
}

/** What `crosschainProgressEvents` (a sandbox addition) adds to the settlement's events: the intent and its route. */
function sandboxFields(intent: PaymentIntentRecord) {
  return {
    paymentIntentId: intent.id,
    sourceNetwork: intent.source.network,
    destinationNetwork: intent.destination.network,
  }
}

async function pullOnSource(shared: Shared, intent: PaymentIntentRecord): Promise<Hex> {
  const operator = shared.operator!
  const chain = shared.chains.get(intent.source.network)!
  const owner = intent.source.account as Address
  const token = intent.source.token as Address
  const total = intent.permitted.reduce((sum, v) => sum + BigInt(v), 0n)
  const balance = await chain.balanceOf(token, owner)
  if (balance < total) {
    throw new SettlementFailure(
      'insufficient_funds',
      `${owner} holds ${balance} base units of ${intent.source.currencyId}; the intent moves ${total}`,
    )
  }
  let allowance = await chain.allowance(token, owner, chain.contracts.Permit2!)
  // A permit is only submitted when it is needed: an earlier one (or an approve) may already cover the intent,
  // and this permit's nonce may then be spent.
  if (allowance < total && intent.permitSignature && intent.approvalPermitPayload) {
    const permit = JSON.parse(intent.approvalPermitPayload) as PermitTypedData
    await operator.submitPermit(intent.source.network, {
      token,
      owner,
      value: BigInt(permit.values.value),
      deadline: BigInt(permit.values.deadline),
      signature: intent.permitSignature as Hex,
    })
    allowance = await chain.allowance(token, owner, chain.contracts.Permit2!)
  }
  if (allowance < total) {
    throw new SettlementFailure(
      'insufficient_allowance',
      `${owner} has not approved Permit2 for ${total} base units of ${intent.source.currencyId} on ${intent.source.network} (allowance ${allowance}): ${intent.supportsEIP2612 ? 'send signedApprovalPermit' : 'send approvalCalldata first'}`,
    )
  }
  const typed = JSON.parse(intent.paymentIntent) as IntentTypedData
  const hash = await operator.pullWithWitness(intent.source.network, {
    owner,
    permitted: typed.values.permitted.map((p) => ({ token: p.token, amount: BigInt(p.amount) })),
    nonce: BigInt(typed.values.nonce),
    deadline: BigInt(typed.values.deadline),
    witness: witnessHash(typed.values.witness),
    witnessTypeString: WITNESS_TYPE_STRING,
    signature: intent.intentSignature as Hex,
    recipients: typed.values.permitted.map(() => typed.values.witness.operator_data.treasury_account),
  })
  return hash
}

/**
 * What of an accepted intent's settlement the chains already hold (a settlement cut short by a restart): whether
 * Permit2 consumed the intent's nonce (the source pull happened), and the operator's ERC20FeeProxy payment of the
 * intent's amounts with its reference (the destination payment happened).
 */
async function alreadyOnChain(shared: Shared, intent: PaymentIntentRecord) {
  const source = shared.chains.get(intent.source.network)!
  const destination = shared.chains.get(intent.destination.network)!
  const typed = JSON.parse(intent.paymentIntent) as IntentTypedData
  const pulled = !(await permit2NonceFree(
    source,
    intent.source.account as Address,
    BigInt(typed.values.nonce),
  ))
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()
  const paid = (await feeProxyPayments(destination, intent.paymentReference as Hex)).find(
    (p) =>
      same(p.from, shared.operator!.address) &&
      same(p.token, intent.destination.token) &&
      same(p.to, intent.destination.account) &&
      same(p.feeAddress, intent.feeAddress) &&
      p.amount === BigInt(intent.destinationAmount) &&
      p.fee === BigInt(intent.destinationFee),
  )
  return { pulled, paidTxHash: paid?.txHash ?? null }
}

/**
 * Transfers the intent's fee legs not yet recorded as paid on the destination chain, recording each hash at once
 * (a resumed settlement skips the recorded ones; one cut between the mined transfer and its record is sent again).
 */
async function payFeeLegs(shared: Shared, world: World, id: string): Promise<void> {
  const legs = intentState(world).paymentIntents.get(id)?.feeLegs ?? []
  for (const [index, leg] of legs.entries()) {
    if (leg.txHash) continue
    const intent = intentState(world).paymentIntents.get(id)!
    const txHash = await shared.operator!.transferBridged(intent.destination.network, {
      token: intent.destination.token as Address,
      to: leg.address as Address,
      amount: BigInt(leg.amount),
    })
    await intentState(world).paymentIntents.update(id, (draft) => {
      draft.feeLegs![index]!.txHash = txHash
    })
  }
}

/**
 * Runs the settlement of an accepted intent; records the outcome on the intent and announces each step. `resumed`
 * (an intent accepted before a restart): the steps the chains already hold are recognised and not done twice.
 */
export async function settleIntent(shared: Shared, world: World, id: string, resumed = false): Promise<void> {
  const intent = intentState(world).paymentIntents.get(id)
  if (intent?.status !== 'accepted' || !shared.operator) return
  const progress = world.rules.crosschainProgressEvents === true
  const emit = (subStatus: string, extra: Record<string, unknown> = {}) => {
    if (!progress) return
    shared.events.emit(world, 'payment.processing', {
      ...documentedPayload(intent),
      ...sandboxFields(intent),
      timestamp: world.clock.now().toISOString(),
      subStatus,
      ...extra,
    })
  }
  try {
    const done = resumed ? await alreadyOnChain(shared, intent) : { pulled: false, paidTxHash: null }
    // a pull the chain holds but the saved intent does not (stopped between the two) is not announced again
    if (!done.pulled) {
      emit('crosschain_initiated')
      const sourceTxHash = await pullOnSource(shared, intent)
      await intentState(world).paymentIntents.update(id, (draft) => {
        draft.sourceTxHash = sourceTxHash
      })
      emit('source_funds_received', { txHash: sourceTxHash, network: intent.source.network })
    }
    // fee legs go before the payment (as the transfers of a same-chain link): a paid intent paid them already
    if (!done.paidTxHash) await payFeeLegs(shared, world, id)
    const destinationTxHash =
      done.paidTxHash ??
      (await shared.operator.payThroughFeeProxy(intent.destination.network, {
        token: intent.destination.token as Address,
        to: intent.destination.account as Address,
        amount: BigInt(intent.destinationAmount),
        reference: intent.paymentReference as Hex,
        fee: BigInt(intent.destinationFee),
        feeAddress: intent.feeAddress as Address,
      }))
    await intentState(world).paymentIntents.update(id, (draft) => {
      draft.status = 'completed'
      draft.destinationTxHash = destinationTxHash
    })
    emit('destination_payment_sent', { txHash: destinationTxHash, network: intent.destination.network })
  } catch (error) {
    const subStatus = error instanceof SettlementFailure ? error.subStatus : 'failed'
    const reason = error instanceof SettlementFailure ? error.message : revertReason(error)
    await intentState(world).paymentIntents.update(id, (draft) => {
      draft.status = 'failed'
      draft.failureReason = reason
    })
    shared.events.emit(world, 'payment.failed', {
      ...documentedPayload(intent),
      timestamp: world.clock.now().toISOString(),
      subStatus,
      ...(progress ? { ...sandboxFields(intent), reason } : {}),
    })
  }
}

/**
 * Settles again, after a restart (--state-dir), every intent of `world` that was accepted and not yet settled when
 * the process stopped: the settlement timers died with it. Each checks the chains first (no double pull, no double
 * payment) and runs on the world's clock at once.
 */
export function resumeSettlements(shared: Shared, world: World): void {
  for (const intent of intentState(world).paymentIntents.all()) {
    if (intent.status !== 'accepted') continue
    world.clock.schedule(world.clock.now(), `settle payment intent ${intent.id}`, () =>
      settleIntent(shared, world, intent.id, true),
    )
  }
}
