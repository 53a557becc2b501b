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

/** How deep a JSON body's objects and arrays may nest (the body itself is level 1): deeper ones are refused. */
export const MAX_BODY_DEPTH = 64

/** What a body breaks: an object or array nested past MAX_BODY_DEPTH (its dotted path), or a size bound (a zod issue). */
export type BodyIssue = { tooDeep: string } | { tooBig: z.core.$ZodIssue }

/**
 * The body's first breach, in one walk: nesting past MAX_BODY_DEPTH comes before any size bound (it is what could
 * make the body fail to serialise later), then the first string, array or object past its bound in document order
 * (found again by `firstBreach` once the walk knows there is one: a refused body only). Containers are indexed as
 * met, each with its key and parent, so no path is built unless a value is refused and nothing is allocated for
 * strings and numbers.
 */
export function bodyIssue(body: unknown): BodyIssue | null {
  if (typeof body === 'string')
    return body.length > BODY_LIMITS.maxStringLength
      ? { tooBig: tooBig('string', BODY_LIMITS.maxStringLength, 'characters', []) }
      : null
  if (body === null || typeof body !== 'object') return null
  if (flat(body)) return flatIssue(body)
  const values: object[] = [body]
  const keys: (string | number)[] = ['']
  const parents: number[] = [-1]
  const depths: number[] = [1]
  const stack: number[] = [0]
  let breached = false
  const pathOf = (node: number, last?: string | number) => {
    const path: (string | number)[] = last === undefined ? [] : [last]
    for (let n = node; n > 0; n = parents[n]!) path.unshift(keys[n]!)
    return path
  }
  while (stack.length > 0) {
    const node = stack.pop()!
    const value = values[node]!
    const depth = depths[node]!
    const isArray = Array.isArray(value)
    const names = isArray ? null : Object.keys(value)
    const count = isArray ? (value as unknown[]).length : names!.length
    if (count > (isArray ? BODY_LIMITS.maxItems : BODY_LIMITS.maxKeys)) breached = true
    for (let i = 0; i < count; i++) {
      const key = isArray ? i : names![i]!
      const child = (value as Record<string | number, unknown>)[key]
      if (typeof child === 'string') {
        if (child.length > BODY_LIMITS.maxStringLength) breached = true
      } else if (child !== null && typeof child === 'object' && depth + 1 > MAX_BODY_DEPTH)
        return { tooDeep: pathOf(node, key).join('.') }
    }
    // nested containers pushed in reverse: the stack visits them in key order
    for (let i = count - 1; i >= 0; i--) {
      const key = isArray ? i : names![i]!
      const child = (value as Record<string | number, unknown>)[key]
      if (child !== null && typeof child === 'object') {
        values.push(child)
        keys.push(key)
        parents.push(node)
        depths.push(depth + 1)
        stack.push(values.length - 1)
      }
    }
  }
  return breached ? { tooBig: firstBreach(body) } : null
}

/**
 * The first string, array or object past its bound in document order (a container before what it holds, keys in
 * order), as a zod issue with its path; called only for a body known to breach one and nested within
 * MAX_BODY_DEPTH. Each entry links to its parent: the path is built for the value refused only.
 */
function firstBreach(body: unknown): z.core.$ZodIssue {
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
  throw new Error('firstBreach: the body breaches no bound')
}

/** Whether an object or array holds no object or array (most bodies): it is checked without the walk's stacks. */
function flat(value: object): boolean {
  for (const key in value) {
    const child = (value as Record<string, unknown>)[key]
    if (child !== null && typeof child === 'object') return false
  }
  return true
}

/** The size issue of a body that nests nothing: its own count, then its strings in key order. */
function flatIssue(value: object): BodyIssue | null {
  const isArray = Array.isArray(value)
  const count = isArray ? value.length : Object.keys(value).length
  if (count > (isArray ? BODY_LIMITS.maxItems : BODY_LIMITS.maxKeys))
    return {
      tooBig: isArray
        ? tooBig('array', BODY_LIMITS.maxItems, 'items', [])
        : tooBig('object', BODY_LIMITS.maxKeys, 'keys', []),
    }
  for (const key in value) {
    const child = (value as Record<string, unknown>)[key]
    if (typeof child === 'string' && child.length > BODY_LIMITS.maxStringLength)
      return {
        tooBig: tooBig('string', BODY_LIMITS.maxStringLength, 'characters', [isArray ? Number(key) : key]),
      }
  }
  return null
}
