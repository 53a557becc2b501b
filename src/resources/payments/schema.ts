import { isAddress } from 'viem'
import { z } from 'zod'
import { QueryInteger } from '../../contract/primitives.ts'

const PAYMENT_TYPES = ['direct', 'conversion', 'crosschain', 'recurring'] as const
const UTC_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/

const utcDate = (field: string) =>
  z.string().refine((v) => UTC_TIMESTAMP.test(v) && !Number.isNaN(Date.parse(v)), {
    message: `${field} must be a valid ISO 8601 date in UTC (ending with 'Z')`,
  })

/** The query parameters that select payments; at least one is required (dates and paging only narrow). */
export const SEARCH_CRITERIA = [
  'txHash',
  'walletAddress',
  'paymentReference',
  'requestId',
  'reference',
  'type',
  'invoiceCurrency',
  'paymentCurrency',
] as const

/** Query of `GET /v2/payments`. */
export const PaymentSearchQuery = z
  .object({
    txHash: z
      .string()
      .regex(/^0x[0-9a-fA-F]{64}$/, {
        message: "txHash must be a valid 66-character hex string starting with '0x'",
      })
      .optional(),
    walletAddress: z
      .string()
      .refine((v) => isAddress(v, { strict: false }) || /^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(v), {
        message: 'walletAddress must be a valid Ethereum or TRON address',
      })
      .optional(),
    paymentReference: z
      .string()
      .regex(/^0x[0-9a-fA-F]{16}$/, {
        message: "paymentReference must be '0x' followed by 16 hex characters",
      })
      .optional(),
    requestId: z.string().min(1).optional(),
    reference: z.string().min(1).max(255).optional(),
    type: z
      .enum(PAYMENT_TYPES, {
        error: (issue) =>
          `Invalid enum value. Expected ${PAYMENT_TYPES.map((t) => `'${t}'`).join(' | ')}, received '${String(issue.input)}'`,
      })
      .optional(),
    invoiceCurrency: z.string().min(1).optional(),
    paymentCurrency: z.string().min(1).optional(),
    fromDate: utcDate('fromDate').optional(),
    toDate: utcDate('toDate').optional(),
    limit: QueryInteger('limit', 1, 100).optional(),
    offset: QueryInteger('offset', 0, 1_000_000).optional(),
  })
  .superRefine((q, ctx) => {
    if (!SEARCH_CRITERIA.some((key) => q[key] !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['query'],
        message: `At least one search parameter must be provided: ${SEARCH_CRITERIA.join(', ')}`,
      })
    }
    if (q.fromDate && q.toDate && Date.parse(q.toDate) < Date.parse(q.fromDate)) {
      ctx.addIssue({ code: 'custom', path: ['toDate'], message: 'toDate must be after or equal to fromDate' })
    }
  })
export type PaymentSearchQuery = z.infer<typeof PaymentSearchQuery>

const Fee = z.object({
  type: z.enum(['gas', 'platform', 'crosschain', 'crypto-to-fiat', 'offramp']),
  stage: z.enum(['sending', 'receiving', 'proxying', 'refunding']),
  provider: z.string(),
  amount: z.string(),
  currency: z.string(),
  receiverAddress: z.string().optional(),
  network: z.string(),
})

/** 200 of `GET /v2/payments`. */
export const PaymentSearchResponse = z.object({
  payments: z.array(
    z.object({
      id: z.string(),
      amount: z.string(),
      sourceNetwork: z.string(),
      destinationNetwork: z.string(),
      sourceTxHash: z.string().nullable(),
      destinationTxHash: z.string().nullable(),
      timestamp: z.string(),
      type: z.enum(PAYMENT_TYPES),
      conversionRateSource: z.string().nullable(),
      conversionRateDestination: z.string().nullable(),
      convertedAmountSource: z.string().nullable(),
      convertedAmountDestination: z.string().nullable(),
      currency: z.string(),
      paymentCurrency: z.string(),
      fees: z.array(Fee).nullable(),
      recurringPaymentId: z.string().nullable(),
      rateProvider: z.enum(['lifi', 'chainlink', 'coingecko', 'unknown']).nullable(),
      request: z.object({
        requestId: z.string(),
        paymentReference: z.string(),
        hasBeenPaid: z.boolean(),
        customerInfo: z.record(z.string(), z.unknown()).nullable(),
        reference: z.string().nullable(),
      }),
    }),
  ),
  pagination: z.object({ total: z.number(), limit: z.number(), offset: z.number(), hasMore: z.boolean() }),
})
