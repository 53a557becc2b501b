/** What the pay endpoints take from their query (v1 passes a subset). */
export interface PayOptions {
  wallet?: string
  chain?: string
  token?: string
  amount?: string
  clientUserId?: string
  paymentDetailsId?: string
  feePercentage?: string
  feeAddress?: string
  /**
   * Never from a query: fees a secure payment link fixed at creation (its orchestrator fees), in base units of the
   * request's payment currency, that a cross-chain intent moves to their addresses beside the payment.
   */
  feeLegs?: { address: string; amount: bigint }[]
}

/**
 * The services the pay builder uses: what a caller of `buildPayment` must hand it (declared here so that model.ts
 * and tron.ts, which model.ts imports, share one list).
 */
export type PayServiceNames =
  | 'chains'
  | 'compliance'
  | 'conversion'
  | 'currencies'
  | 'directory'
  | 'events'
  | 'ids'
  | 'networks'
  | 'offrampAddress'
  | 'operator'
  | 'paymentReferences'
  | 'worlds'
