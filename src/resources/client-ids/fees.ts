import type { CallScope } from '../../contract/route-context.ts'

/** The fee a payment carries: what the API call asked, unless the caller's client ID overrides it. */
export interface EffectiveFee {
  feePercentage?: string
  feeAddress?: string
}

/**
 * Applies a client ID's fee settings to the fee an API call passed, as the interface says: a client ID fee of
 * `0` (or none) lets the API-passed fee win; any other value overrides it, with the client ID's fee address.
 */
export function effectiveFee(ctx: Pick<CallScope, 'caller'>, passed: EffectiveFee): EffectiveFee {
  const grant = ctx.caller?.clientId
  if (!grant?.feePercentage || Number(grant.feePercentage) === 0 || !grant.feeAddress) return passed
  return { feePercentage: grant.feePercentage, feeAddress: grant.feeAddress }
}
