import { describe, expect, it } from 'vitest'
import { compareResponses } from './compare.ts'
import { formatOf } from './formats.ts'
import { masks, parseMask } from './masks.ts'

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  body: JSON.stringify(body),
})

describe('formats', () => {
  it('names the formats of volatile values', () => {
    expect(formatOf(`01${'ab'.repeat(32)}`)).toBe('request-id')
    expect(formatOf('0xb3581f0b0f74cc61')).toBe('payment-reference')
    expect(formatOf(`0x${'a'.repeat(64)}`)).toBe('hash-32')
    expect(formatOf('0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7')).toBe('address-checksummed')
    expect(formatOf('0x6923831acf5c327260d7ac7c9dff5b1c3cb3c7d7')).toBe('address-lowercase')
    expect(formatOf('01JPHNEY8RRJTB94Q34GAW8BC3')).toBe('ulid')
    expect(formatOf('a25a4274-8f50-4579-b476-8f35b297d4ad')).toBe('uuid')
    expect(formatOf('2026-12-06T12:16:56.356Z')).toBe('date-time')
    expect(formatOf('12.5')).toBe('decimal')
    expect(formatOf('cli_868a5c4dcbba')).toBe('prefixed-id')
    expect(formatOf('pending')).toBe('token')
    expect(formatOf('Request not found')).toBe('text')
  })
})

describe('compareResponses', () => {
  it('compares volatile values by format, not by value', () => {
    const a = { requestId: `01${'1'.repeat(64)}`, createdAt: '2026-01-01T00:00:00.000Z', amount: '10.5' }
    const b = { requestId: `01${'2'.repeat(64)}`, createdAt: '2027-05-05T10:00:00.000Z', amount: '3' }
    expect(compareResponses(json(200, a), json(200, b))).toEqual([])
    expect(
      compareResponses(json(200, a), json(200, { ...b, requestId: '01JPHNEY8RRJTB94Q34GAW8BC3' })),
    ).toEqual([{ kind: 'format', path: '$.requestId', real: 'request-id', sandbox: 'ulid' }])
  })

  it('reports a different status alone', () => {
    expect(compareResponses(json(200, { a: 1 }), json(404, { message: 'Request not found' }))).toEqual([
      { kind: 'status', path: 'status', real: '200', sandbox: '404 Request not found' },
    ])
  })

  it('reports a missing subtree once, at its top, and a rename as one difference', () => {
    expect(compareResponses(json(200, { a: 1, fees: { x: 1, y: [1] } }), json(200, { a: 1 }))).toEqual([
      { kind: 'missing-field', path: '$.fees', real: 'object', sandbox: 'absent' },
    ])
    expect(compareResponses(json(200, { a: 1, b: 'x' }), json(200, { a: 1, c: 'x' }))).toEqual([
      { kind: 'renamed-field', path: '$.b', real: 'b', sandbox: 'c' },
    ])
    // two fields gone and one new under the same object: no guess, three differences
    expect(compareResponses(json(200, { b: 1, d: 2 }), json(200, { c: 1 }))).toHaveLength(3)
  })

  it('compares array items only when both sides have some, and types at every path', () => {
    expect(compareResponses(json(200, { list: [] }), json(200, { list: [{ id: 1 }] }))).toEqual([])
    expect(compareResponses(json(200, { list: [{ fee: 0 }] }), json(200, { list: [{ fee: '0' }] }))).toEqual([
      { kind: 'type', path: '$.list[*].fee', real: 'number', sandbox: 'string' },
    ])
    expect(
      compareResponses(json(200, { txHash: null }), json(200, { txHash: `0x${'0'.repeat(64)}` })),
    ).toEqual([{ kind: 'type', path: '$.txHash', real: 'null', sandbox: 'string' }])
  })

  it('compares enum values as sets, but not lists of names', () => {
    expect(compareResponses(json(200, { status: 'pending' }), json(200, { status: 'paid' }))).toEqual([
      { kind: 'enum', path: '$.status', real: 'pending', sandbox: 'paid' },
    ])
    const many = (n: number) => Array.from({ length: n }, (_, i) => ({ symbol: `T${i}` }))
    expect(compareResponses(json(200, many(12)), json(200, many(11)))).toEqual([])
  })

  it('compares the messages of error answers', () => {
    const real = json(400, {
      statusCode: 400,
      message: 'Validation failed',
      errors: [{ field: 'amount', message: 'Required' }],
    })
    const sandbox = json(400, {
      statusCode: 400,
      message: 'Validation failed',
      errors: [{ field: 'amount', message: 'Invalid input' }],
    })
    expect(compareResponses(real, sandbox)).toEqual([
      { kind: 'message', path: '$.errors[*].message', real: 'Required', sandbox: 'Invalid input' },
    ])
  })

  it('compares the headers clients read: media type, rate limits, pagination', () => {
    const real = json(200, {}, { 'x-ratelimit-remaining': '4', link: '<...>; rel="next"', date: 'x' })
    const sandbox = { ...json(200, {}), headers: { 'content-type': 'text/plain' } }
    expect(compareResponses(real, sandbox)).toEqual([
      { kind: 'header', path: 'header content-type', real: 'application/json', sandbox: 'text/plain' },
      { kind: 'header', path: 'header link', real: 'present', sandbox: 'absent' },
      { kind: 'header', path: 'header x-ratelimit-remaining', real: 'present', sandbox: 'absent' },
    ])
  })

  it('compares a JSON body with an empty one', () => {
    expect(
      compareResponses({ status: 200, headers: {}, body: '' }, { status: 200, headers: {}, body: '' }),
    ).toEqual([])
    expect(
      compareResponses(json(200, { ok: true }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: '',
      }),
    ).toEqual([{ kind: 'body', path: '$', real: 'JSON', sandbox: 'empty' }])
  })
})

describe('masks', () => {
  it('hide a path and what lies below it, any depth with .., for one operation or all', () => {
    expect(masks(parseMask('$.a'), 'GET /x', '$.a.b')).toBe(true)
    expect(masks(parseMask('$.a'), 'GET /x', '$.ab')).toBe(false)
    expect(masks(parseMask('$..fee'), 'GET /x', '$.routes[*].fee')).toBe(true)
    expect(masks(parseMask('GET /y $..fee'), 'GET /x', '$.routes[*].fee')).toBe(false)
    expect(masks(parseMask('header link'), 'GET /x', 'header link')).toBe(true)
    expect(() => parseMask('fee')).toThrow(/JSON path/)
  })
})
