import { isAddress } from 'viem'
import { z } from 'zod'
import { isTronAddress, TRON_CHECKSUM_MESSAGE, tronChecksumFails } from '../tron/address.ts'

/** An EVM address, any casing (checksum not enforced, as the service accepts lower-case addresses). */
export const Address = z
  .string()
  .refine((v) => isAddress(v, { strict: false }), { message: 'Invalid Ethereum address' })

/**
 * A wallet or token address where the documents allow both forms: EVM (`0x…`, any casing) or Tron (`T…`,
 * base58check verified; a `T…` address whose checksum alone fails is refused as such). Which one a network takes is checked where the network is known (`addressFor`).
 */
export const AnyAddress = z.string().superRefine((v, ctx) => {
  if (isAddress(v, { strict: false }) || isTronAddress(v)) return
  ctx.addIssue({
    code: 'custom',
    message: tronChecksumFails(v)
      ? TRON_CHECKSUM_MESSAGE
      : 'Invalid address: expected an EVM (0x…) or Tron (T…) address',
  })
})

/** `01` + 64 lower-case hex: a request id. */
export const RequestId = z.string().regex(/^01[0-9a-f]{64}$/)

/** `0x` + 16 lower-case hex: a payment reference (8 bytes). */
export const PaymentReference = z.string().regex(/^0x[0-9a-f]{16}$/)

/** A positive human-readable decimal amount such as `"10"` or `"25.50"`. */
export const PositiveAmount = z
  .string()
  .regex(/^\d+(\.\d+)?$/, { message: 'amount must be a positive decimal number written as a string' })
  .refine((v) => /[1-9]/.test(v), { message: 'amount must be greater than 0' })

/** A percentage 0-100 written as a string, such as `"2.5"`. */
export const Percentage = z
  .string()
  .regex(/^\d+(\.\d+)?$/, { message: 'feePercentage must be a number between 0 and 100' })
  .refine((v) => Number(v) >= 0 && Number(v) <= 100, {
    message: 'feePercentage must be a number between 0 and 100',
  })

/** A query parameter holding a whole number from `min` to `max` (`limit`, `offset` of the paged lists). */
export const QueryInteger = (field: string, min: number, max: number) =>
  z.string().refine((v) => /^\d+$/.test(v) && Number(v) >= min && Number(v) <= max, {
    message: `${field} must be an integer between ${min} and ${max}`,
  })

/** A calendar date `YYYY-MM-DD` that exists, or a full ISO 8601 timestamp. */
export const DateOrTimestamp = z.string().refine((v) => parseDateOrTimestamp(v) !== null, {
  message: 'must be a date (YYYY-MM-DD) or an ISO 8601 timestamp',
})

/** Parses `YYYY-MM-DD` (a real calendar day) or an ISO timestamp; null when neither. */
export function parseDateOrTimestamp(value: string): Date | null {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  if (day) {
    const date = new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3])))
    return date.toISOString().startsWith(value) ? date : null
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(value)) return null
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? null : date
}
