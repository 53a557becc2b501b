// The validate stage learns which query schemas pass an empty query as an empty object, and skips their parse for
// the next empty queries; a schema that fills defaults, refuses an empty query or transforms it is parsed every time.
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { NeutralRequest } from '../contract/neutral.ts'
import type { AnyRoute, MatchedRoute } from './stages.ts'
import { validateInput } from './validate.ts'

const request = (query: Record<string, string>) =>
  ({ method: 'GET', path: '/q', query, headers: {}, rawBody: undefined }) as NeutralRequest

function matched(query: z.ZodType): { match: MatchedRoute; parses: () => number } {
  let count = 0
  const counted = z.preprocess((value) => {
    count++
    return value
  }, query)
  const route = {
    method: 'GET',
    path: '/q',
    credentials: ['api-key'],
    surface: 'api',
    summary: 'q',
    query: counted,
    handler: () => ({ status: 200, body: null }),
  } as unknown as AnyRoute
  return { match: { route, index: 0, names: [], values: [] }, parses: () => count }
}

describe('the validate stage and empty queries', () => {
  it('parses an empty query once for a schema that passes it empty, then gives a fresh {} each time', () => {
    const { match, parses } = matched(z.object({ network: z.string().optional() }))
    const first = validateInput(match, request({})).query
    const second = validateInput(match, request({})).query
    const third = validateInput(match, request({})).query
    expect([first, second, third]).toEqual([{}, {}, {}])
    expect(second).not.toBe(third)
    expect(parses()).toBe(1)
    // a query with keys is parsed as always
    expect(validateInput(match, request({ network: 'sepolia' })).query).toEqual({ network: 'sepolia' })
    expect(parses()).toBe(2)
  })

  it('parses every empty query of a schema that fills a default, refuses it or transforms it', () => {
    const defaults = matched(z.object({ limit: z.coerce.number().default(10) }))
    for (let i = 0; i < 3; i++)
      expect(validateInput(defaults.match, request({})).query).toEqual({ limit: 10 })
    expect(defaults.parses()).toBe(3)
    const required = matched(z.object({ network: z.string() }))
    for (let i = 0; i < 3; i++) expect(() => validateInput(required.match, request({}))).toThrow()
    expect(required.parses()).toBe(3)
    const mapped = matched(z.object({}).transform(() => new Map()))
    for (let i = 0; i < 3; i++) expect(validateInput(mapped.match, request({})).query).toBeInstanceOf(Map)
    expect(mapped.parses()).toBe(3)
  })
})
