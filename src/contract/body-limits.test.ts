import { describe, expect, it } from 'vitest'
import { BODY_LIMITS, bodyIssue, MAX_BODY_DEPTH } from './body-limits.ts'

const long = 'x'.repeat(BODY_LIMITS.maxStringLength + 1)
const manyItems = Array.from({ length: BODY_LIMITS.maxItems + 1 }, () => 1)
const manyKeys = Object.fromEntries(Array.from({ length: BODY_LIMITS.maxKeys + 1 }, (_, i) => [`k${i}`, 1]))
const nested = (levels: number, leaf: unknown = 1): unknown => {
  let value: unknown = leaf
  for (let i = 0; i < levels; i++) value = { n: value }
  return value
}
const pathOf = (body: unknown) => {
  const issue = bodyIssue(body)
  if (issue === null) return null
  return 'tooDeep' in issue
    ? { tooDeep: issue.tooDeep }
    : { path: issue.tooBig.path, origin: (issue.tooBig as { origin?: string }).origin }
}

describe('bodyIssue', () => {
  it('passes bodies within every bound', () => {
    expect(bodyIssue({ a: 'x'.repeat(BODY_LIMITS.maxStringLength), b: [1, 2, { c: 'd' }] })).toBeNull()
    expect(bodyIssue(nested(MAX_BODY_DEPTH - 1))).toBeNull()
  })

  it('names a long string, a big array and an object of many keys by their path', () => {
    expect(pathOf({ a: long })).toEqual({ path: ['a'], origin: 'string' })
    expect(pathOf({ a: { b: [1, long] } })).toEqual({ path: ['a', 'b', 1], origin: 'string' })
    expect(pathOf({ a: manyItems })).toEqual({ path: ['a'], origin: 'array' })
    expect(pathOf(manyItems)).toEqual({ path: [], origin: 'array' })
    expect(pathOf({ a: [{ m: manyKeys }] })).toEqual({ path: ['a', 0, 'm'], origin: 'object' })
    expect(pathOf(long)).toEqual({ path: [], origin: 'string' })
  })

  it('names the first breach in document order when several fields break a bound', () => {
    // a nested breach that comes first in the body is named before a later one at a shallower level
    expect(pathOf({ a: { b: long }, c: long })).toEqual({ path: ['a', 'b'], origin: 'string' })
    expect(pathOf({ a: manyItems, b: long })).toEqual({ path: ['a'], origin: 'array' })
    expect(pathOf({ a: [{ b: long }], c: manyKeys })).toEqual({ path: ['a', 0, 'b'], origin: 'string' })
    // a container's own size comes before what it holds
    expect(pathOf({ a: [...manyItems.slice(1), long, 1] })).toEqual({ path: ['a'], origin: 'array' })
  })

  it('names nesting past the depth bound before any size bound', () => {
    expect(pathOf({ a: long, b: nested(MAX_BODY_DEPTH) })).toEqual({
      tooDeep: ['b', ...Array(MAX_BODY_DEPTH - 1).fill('n')].join('.'),
    })
  })
})
