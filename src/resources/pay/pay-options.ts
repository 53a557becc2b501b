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
