// Size bounds every JSON body meets before its route's schema reads it: strings, arrays and objects (records) larger
// than any real call sends are refused with a 400 naming the field, in the route's own validation shape, so a
// caller-chosen body (a webhook payload, a record of metadata) cannot grow what the sandbox keeps and shows.
// Walked without recursion: a deeply nested body cannot exhaust the stack here.
import type { z } from 'zod'

/** The bounds (the same for every route: the documents give no larger field). */
export const BODY_LIMITS = {
  /** characters of one string (calldata and signatures are far shorter) */
  maxStringLength: 16_384,
  /** items of one array (the largest documented list, a secure payment's requests, takes 200) */
  maxItems: 1_000,
  /** keys of one object */
  maxKeys: 1_000,
} as const

/** The first value past a bound, as a zod issue (path included), or null when the body is within them. */
export function bodyLimitIssue(body: unknown): z.core.$ZodIssue | null {
  // each entry links to its parent: the path is built only for the value refused (a deep body copies no paths)
  type Entry = { value: unknown; key: string | number | null; parent: Entry | null }
  const stack: Entry[] = [{ value: body, key: null, parent: null }]
  while (stack.length > 0) {
    const entry = stack.pop()!
    const { value } = entry
    const path: (string | number)[] = []
    const pathOf = () => {
      for (let e: Entry | null = entry; e?.key !== null && e !== null; e = e.parent) path.unshift(e.key)
      return path
    }
    if (typeof value === 'string') {
      if (value.length > BODY_LIMITS.maxStringLength)
        return {
          code: 'too_big',
          origin: 'string',
          maximum: BODY_LIMITS.maxStringLength,
          inclusive: true,
          path: pathOf(),
          message: `Too big: expected string to have <=${BODY_LIMITS.maxStringLength} characters`,
          input: undefined,
        } as z.core.$ZodIssue
    } else if (Array.isArray(value)) {
      if (value.length > BODY_LIMITS.maxItems)
        return {
          code: 'too_big',
          origin: 'array',
          maximum: BODY_LIMITS.maxItems,
          inclusive: true,
          path: pathOf(),
          message: `Too big: expected array to have <=${BODY_LIMITS.maxItems} items`,
          input: undefined,
        } as z.core.$ZodIssue
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], key: i, parent: entry })
    } else if (value !== null && typeof value === 'object') {
      const keys = Object.keys(value)
      if (keys.length > BODY_LIMITS.maxKeys)
        return {
          code: 'too_big',
          origin: 'object',
          maximum: BODY_LIMITS.maxKeys,
          inclusive: true,
          path: pathOf(),
          message: `Too big: expected object to have <=${BODY_LIMITS.maxKeys} keys`,
          input: undefined,
        } as z.core.$ZodIssue
      for (let i = keys.length - 1; i >= 0; i--)
        stack.push({ value: (value as Record<string, unknown>)[keys[i]!], key: keys[i]!, parent: entry })
    }
  }
  return null
}
