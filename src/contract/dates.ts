import { z } from 'zod'

/** A `YYYY-MM-DD` calendar day that exists (no 2023-02-30) and is not in the future: a date of birth. */
export const BirthDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a date in YYYY-MM-DD format' })
  .refine(
    (v) => {
      const [y, m, d] = v.split('-').map(Number) as [number, number, number]
      const date = new Date(Date.UTC(y, m - 1, d))
      return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d
    },
    { message: 'must be a calendar date that exists' },
  )
  .refine((v) => v >= '1900-01-01' && v <= new Date().toISOString().slice(0, 10), {
    message: 'must be a date between 1900-01-01 and today',
  })
