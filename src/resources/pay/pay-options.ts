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
