// The orchestrator fees of a Tron link (orchestrators/fees.mdx: `tronRecipientAddress`, "Tron address that receives
// the fee"): each fee fixed at creation is one leg, a TRC-20 `transfer` of the link's currency to the config's Tron
// address, sent through /tron/broadcast like the resource-fee leg (tron.ts): claimed before it goes out (a second one
// is refused), recorded as executed when its receipt says SUCCESS, released when it reverts or the broadcast fails.
// The link completes when its payment and every leg executed (model.ts's linkStatus).
import { encodeFunctionData } from 'viem'
import { erc20Abi } from '../../chain/index.ts'
import { toBaseUnits } from '../../contract/amounts.ts'
import type { World } from '../../contract/world.ts'
import { toEvmAddress, tronStep } from '../../tron/index.ts'
import type { SecureServices } from './context.ts'
import type { SecurePaymentRecord } from './schema.ts'
import { securePaymentState } from './tables.ts'

/** One orchestrator fee of a Tron link as the payer sends it. */
export interface TronOrchestratorLeg {
  requestId: string
  configId: string
  feeBearer: 'payer' | 'recipient'
  /** the fee's address, as the link stored it */
  address: string
  units: bigint
  step: ReturnType<typeof tronStep>
}

const sameLeg = (a: { requestId: string; configId: string }, b: { requestId: string; configId: string }) =>
  a.requestId === b.requestId && a.configId === b.configId

/** Every orchestrator fee leg of a Tron link, in the order the link fixed them. */
export function tronOrchestratorLegs(
  shared: Pick<SecureServices, 'currencies'>,
  link: SecurePaymentRecord,
): TronOrchestratorLeg[] {
  const currency = shared.currencies.byId(link.currency)!
  return (link.orchestratorFees ?? []).map((fee) => {
    const units = toBaseUnits(fee.amount, currency.decimals)
    return {
      requestId: fee.requestId,
      configId: fee.configId,
      feeBearer: fee.feeBearer,
      address: fee.address,
      units,
      step: tronStep(
        toEvmAddress(currency.address),
        'transfer(address,uint256)',
        encodeFunctionData({
          abi: erc20Abi,
          functionName: 'transfer',
          args: [toEvmAddress(fee.address), units],
        }),
      ),
    }
  })
}

/** The claim recorded for `leg` (broadcast, executed or not yet known), if any. */
export function legClaim(link: SecurePaymentRecord, leg: { requestId: string; configId: string }) {
  return (link.orchestratorFeeLegs ?? []).find((claim) => sameLeg(claim, leg))
}

/** The legs still to send: those no broadcast has claimed. */
export function dueOrchestratorLegs(
  shared: Pick<SecureServices, 'currencies'>,
  link: SecurePaymentRecord,
): TronOrchestratorLeg[] {
  return tronOrchestratorLegs(shared, link).filter((leg) => !legClaim(link, leg))
}

/** True once every orchestrator fee of the link executed on chain (true for a link without any). */
export function orchestratorLegsDone(link: SecurePaymentRecord): boolean {
  return (link.orchestratorFees ?? []).every((fee) => legClaim(link, fee)?.executed === true)
}

/** The in-flight key of a leg (beside the link tokens of resource-fee legs in `tronFeeLegsInFlight`). */
export const legKey = (token: string, leg: { requestId: string; configId: string }) =>
  `${token}#orchestrator:${leg.requestId}:${leg.configId}`

/** Records the state of `leg`'s claim: broadcast (`executed` false), executed, or released (`null`). */
export async function setLegClaim(
  world: World,
  token: string,
  leg: { requestId: string; configId: string },
  claim: { txId: string; executed: boolean } | null,
): Promise<SecurePaymentRecord> {
  return (await securePaymentState(world).securePayments.update(token, (d) => {
    const others = (d.orchestratorFeeLegs ?? []).filter((c) => !sameLeg(c, leg))
    d.orchestratorFeeLegs = claim
      ? [...others, { requestId: leg.requestId, configId: leg.configId, ...claim }]
      : others
  }))!
}

/**
 * Settles the leg claims no call is settling (the call that claimed one failed reading its receipt, or the process
 * stopped and --state-dir kept the claim): executed on chain, recorded as such; otherwise released, so /pay asks for
 * the leg again.
 */
export async function settleOrchestratorClaims(
  world: World,
  link: SecurePaymentRecord,
  executed: (txId: string) => Promise<boolean>,
): Promise<SecurePaymentRecord> {
  const inFlight = securePaymentState(world).tronFeeLegsInFlight
  for (const claim of link.orchestratorFeeLegs ?? []) {
    if (claim.executed || inFlight.has(legKey(link.token, claim))) continue
    const done = claim.txId ? await executed(claim.txId).catch(() => false) : false
    if (inFlight.has(legKey(link.token, claim))) continue
    link = await setLegClaim(world, link.token, claim, done ? { txId: claim.txId, executed: true } : null)
  }
  return link
}
