import { z } from 'zod'
import { Address, AnyAddress, Percentage, PositiveAmount } from '../../contract/primitives.ts'

/** One request to create and pay in the batch. */
export const BatchRequestItem = z.object({
  payee: AnyAddress,
  amount: PositiveAmount,
  invoiceCurrency: z.string().min(1),
  paymentCurrency: z.string().min(1),
})

/** Body of `POST /v2/payouts/batch`: `requests` or `requestIds` (not both), the payer, an optional platform fee. */
export const BatchPayoutBody = z
  .object({
    requests: z.array(BatchRequestItem).min(1).max(200).optional(),
    requestIds: z.array(z.string().min(1)).min(1).max(200).optional(),
    payer: AnyAddress.optional(),
    feePercentage: Percentage.optional(),
    feeAddress: Address.optional(),
  })
  .superRefine((body, ctx) => {
    if ((body.requests === undefined) === (body.requestIds === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [body.requests === undefined ? 'requests' : 'requestIds'],
        message: 'Either requests or requestIds must be provided, but not both',
      })
    }
    if ((body.feePercentage === undefined) !== (body.feeAddress === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [body.feePercentage === undefined ? 'feePercentage' : 'feeAddress'],
        message: 'feePercentage and feeAddress must be provided together',
      })
    }
  })
export type BatchPayoutBody = z.infer<typeof BatchPayoutBody>

/** An ERC-20 approval as the batch endpoint returns it (`value` the integer 0, as its schema and examples show). */
export const BatchApproval = z.object({ data: z.string(), to: z.string(), value: z.literal(0) })

/** 201 of `POST /v2/payouts/batch`, under the key its examples and real clients use (`batchPaymentTransaction`). */
export const BatchPayoutResponse = z.object({
  ERC20ApprovalTransactions: z.array(BatchApproval),
  batchPaymentTransaction: z.object({
    data: z.string(),
    to: z.string(),
    value: z.object({ type: z.literal('BigNumber'), hex: z.string() }),
  }),
})
export type BatchPayoutResponse = z.infer<typeof BatchPayoutResponse>
