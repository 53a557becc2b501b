import { z } from 'zod'
import { PositiveAmount } from '../../contract/primitives.ts'

const Decimal = z.string().regex(/^\d+(\.\d+)?$/)

/** fixtures/rates.json: USD price of one unit of each currency. */
export const RatesFixture = z.object({
  $comment: z.string().optional(),
  source: z.literal('chainlink'),
  decimals: z.number().int(),
  usd: z.record(z.string(), Decimal),
})
export type RatesFixture = z.infer<typeof RatesFixture>

/** A tenant's price override (World table `rates`). */
export const RateRecord = z.object({
  currency: z.string(),
  /** USD price of one unit */
  usd: Decimal,
  setAt: z.string(),
})
export type RateRecord = z.infer<typeof RateRecord>

/** Body of `POST /__sandbox/rates`: each entry reads "1 `from` = `rate` `to`". */
export const SetRatesBody = z.object({
  rates: z
    .array(z.object({ from: z.string().min(1), to: z.string().min(1), rate: PositiveAmount }))
    .min(1)
    .max(100),
})
export type SetRatesBody = z.infer<typeof SetRatesBody>
