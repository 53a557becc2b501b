// GET /v2/request?walletAddress=&limit=&offset= (the production document's RequestControllerV2_listRequests_v2; in
// neither published copy): the caller's requests whose payee is the wallet, newest first. Without walletAddress
// (2026-Q3, api-features/query-requests.mdx) it lists the caller's scope: every request of the account behind the
// API key, session or client ID (as a client ID already sees its creator's requests paid to a wallet).
// Differences from the real service: `limit` defaults to 20 when absent (the document gives no default), as
// GET /v2/payments does; requests paid to the off-ramp (no payee) are never listed.
import { isAddress } from 'viem'
import { z } from 'zod'
import { QueryInteger } from '../../contract/primitives.ts'
import type { Uses } from '../services.ts'
import type { RequestRecord } from './schema.ts'
import { hasBeenPaid, statusOf } from './status.ts'
import { requestState } from './tables.ts'

type Ctx = Uses<'conversion' | 'currencies' | 'events' | 'ids' | 'offrampAddress' | 'paymentReferences'>

/** Query of `GET /v2/request`: `walletAddress` is optional; `limit` (1-100) and `offset` are integer strings. */
export const ListRequestsQuery = z.object({
  walletAddress: z
    .string()
    .refine((v) => isAddress(v, { strict: false }), {
      message: 'walletAddress must be a valid Ethereum address',
    })
    .optional(),
  limit: QueryInteger('limit', 1, 100).optional(),
  offset: QueryInteger('offset', 0, 1_000_000).optional(),
})
export type ListRequestsQuery = z.infer<typeof ListRequestsQuery>

/** One item of the list (the production document's fields, nullable where it says so). */
export const ListedRequest = z.object({
  requestId: z.string(),
  paymentReference: z.string(),
  amount: z.string().nullable(),
  invoiceCurrency: z.string(),
  paymentCurrency: z.string(),
  hasBeenPaid: z.boolean(),
  status: z.string().nullable(),
  reference: z.string().nullable(),
  createdAt: z.string().nullable(),
  txHash: z.string().nullable(),
  payee: z.string().nullable(),
  payer: z.string().nullable(),
})

/** 200 of `GET /v2/request`. */
export const ListRequestsResponse = z.object({
  requests: z.array(ListedRequest),
  pagination: z.object({ total: z.number().int(), limit: z.number().int(), offset: z.number().int() }),
})
export type ListRequestsResponse = z.infer<typeof ListRequestsResponse>

/** A request's payee in lower case: the index GET /v2/request lists by. */
const payeeOf = (r: RequestRecord) => r.payee?.toLowerCase()
/** Every request in one bucket: the index GET /v2/request lists by without a wallet. */
const everyRequest = () => 'all'

/** The caller's requests paid to `walletAddress`, newest first, one page of them. */
export function listRequests(ctx: Ctx, query: ListRequestsQuery): ListRequestsResponse {
  const wallet = query.walletAddress?.toLowerCase()
  const limit = Number(query.limit ?? 20)
  const offset = Number(query.offset ?? 0)
  // records enter in clock order (createdAt never goes back within a world): the index's newest end is the list's
  // head, and only the page is walked
  // without walletAddress: every request of the caller's scope (its own index, one bucket)
  const requests = requestState(ctx.world).requests
  const { total, page } =
    wallet === undefined
      ? requests.whereNewest(everyRequest, 'all', offset, limit)
      : requests.whereNewest(payeeOf, wallet, offset, limit)
  return {
    requests: page.map((r) => ({
      requestId: r.requestId,
      paymentReference: r.paymentReference,
      amount: r.amount,
      invoiceCurrency: r.invoiceCurrency,
      paymentCurrency: r.paymentCurrency,
      hasBeenPaid: hasBeenPaid(ctx, r),
      status: statusOf(ctx, r),
      reference: r.reference,
      createdAt: r.createdAt,
      txHash: r.payments.at(-1)?.txHash ?? null,
      payee: r.payee,
      payer: r.payer,
    })),
    pagination: { total, limit, offset },
  }
}
