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

/** The issue of a value past its bound, in zod's own `too_big` shape. */
function tooBig(
  origin: 'string' | 'array' | 'object',
  maximum: number,
  unit: string,
  path: (string | number)[],
): z.core.$ZodIssue {
  return {
    code: 'too_big',
    origin,
    maximum,
    inclusive: true,
    path,
    message: `Too big: expected ${origin} to have <=${maximum} ${unit}`,
    input: undefined,
  } as z.core.$ZodIssue
}

/** The first value past a bound, as a zod issue (path included), or null when the body is within them. */
export function bodyLimitIssue(body: unknown): z.core.$ZodIssue | null {
  // each entry links to its parent: the path is built only for the value refused (a deep body copies no paths)
  type Entry = { value: unknown; key: string | number | null; parent: Entry | null }
  const stack: Entry[] = [{ value: body, key: null, parent: null }]
  while (stack.length > 0) {
    const entry = stack.pop()!
    const { value } = entry
    const pathOf = () => {
      const path: (string | number)[] = []
      for (let e: Entry | null = entry; e !== null && e.key !== null; e = e.parent) path.unshift(e.key)
      return path
    }
    if (typeof value === 'string') {
      if (value.length > BODY_LIMITS.maxStringLength)
        return tooBig('string', BODY_LIMITS.maxStringLength, 'characters', pathOf())
    } else if (Array.isArray(value)) {
      if (value.length > BODY_LIMITS.maxItems) return tooBig('array', BODY_LIMITS.maxItems, 'items', pathOf())
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], key: i, parent: entry })
    } else if (value !== null && typeof value === 'object') {
      const keys = Object.keys(value)
      if (keys.length > BODY_LIMITS.maxKeys) return tooBig('object', BODY_LIMITS.maxKeys, 'keys', pathOf())
      for (let i = keys.length - 1; i >= 0; i--)
        stack.push({ value: (value as Record<string, unknown>)[keys[i]!], key: keys[i]!, parent: entry })
    }
  }
  return null
}
