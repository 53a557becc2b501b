// The journal middleware records an API call of a key once (method, path, query, status, bodies, fault, hint) and
// passes public and control calls through unrecorded.
import { describe, expect, it } from 'vitest'
import type { CallInfo } from '../../contract/middleware.ts'
import type { NeutralResponse } from '../../contract/neutral.ts'
import type { NewJournalEntry, RawBody } from '../../control/journal.ts'
import type { SandboxState } from '../../control/services.ts'
import { journalMiddleware } from './journal.ts'

function setup() {
  const recorded: { tenant: string; entry: NewJournalEntry }[] = []
  const shared = {
    tenants: { peek: () => undefined },
    now: () => new Date('2026-01-02T03:04:05.000Z'),
    journal: {
      recordBuilt: (tenant: string, entry: NewJournalEntry) => recorded.push({ tenant, entry }),
    },
    log: () => {},
  } as unknown as SandboxState
  return { recorded, middleware: journalMiddleware(shared) }
}

const call = (surface: 'api' | 'control', caller: CallInfo['caller']): CallInfo => ({
  request: {
    method: 'post',
    path: '/v2/request',
    query: { a: '1' },
    headers: {},
    rawBody: '{"amount":"1"}',
  },
  route: { surface } as CallInfo['route'],
  caller,
  scenario: 'default',
  hint: 'a hint',
})

const answer = async (): Promise<NeutralResponse> => ({
  status: 429,
  headers: { 'x-sandbox-fault': 'rate-limit' },
  body: { statusCode: 429 },
})

describe('journal middleware', () => {
  it('records an API call of a key with its answer, fault and hint', async () => {
    const { recorded, middleware } = setup()
    const response = await middleware(call('api', { tenant: 'k', via: 'api-key' }), answer)
    expect(response.status).toBe(429)
    expect(recorded).toHaveLength(1)
    const { tenant, entry } = recorded[0]!
    expect(tenant).toBe('k')
    expect(entry).toMatchObject({
      type: 'call',
      at: '2026-01-02T03:04:05.000Z',
      scenario: 'default',
      method: 'POST',
      path: '/v2/request',
      query: { a: '1' },
      status: 429,
      fault: 'rate-limit',
      hint: 'a hint',
    })
    const bodies = entry as unknown as Record<'requestBody' | 'responseBody', RawBody>
    expect(bodies.requestBody.text).toBe('{"amount":"1"}')
    expect(bodies.responseBody.text).toBe('{"statusCode":429}')
  })

  it('records an error the rest threw as the answer it renders', async () => {
    const { recorded, middleware } = setup()
    const response = await middleware(call('api', { tenant: 'k', via: 'api-key' }), () =>
      Promise.reject(new Error('boom')),
    )
    expect(response.status).toBe(500)
    expect(recorded[0]!.entry).toMatchObject({ status: 500 })
  })

  it('journals an answer kept with its bytes as one shared body holding its UTF-8 size and start', async () => {
    const { recorded, middleware } = setup()
    const text = JSON.stringify(Array.from({ length: 1000 }, (_, i) => `₮${i}`))
    const utf8 = new TextEncoder().encode(text)
    const kept = async (): Promise<NeutralResponse> => ({ status: 200, headers: {}, body: [], text, utf8 })
    await middleware(call('api', { tenant: 'k', via: 'api-key' }), kept)
    await middleware(call('api', { tenant: 'k', via: 'api-key' }), kept)
    const [first, second] = recorded.map(
      ({ entry }) => (entry as unknown as Record<'responseBody', RawBody>).responseBody,
    )
    expect(second).toBe(first)
    expect(first!.bytes).toBe(Buffer.byteLength(text))
    expect(first!.view()).toEqual({
      truncated: true,
      bytes: Buffer.byteLength(text),
      start: text.slice(0, 256),
    })
  })

  it("journals the path the call was made on, not its route's pattern", async () => {
    const { recorded, middleware } = setup()
    const same = call('api', { tenant: 'k', via: 'api-key' })
    same.route = { surface: 'api', path: '/v2/request' } as CallInfo['route']
    await middleware(same, answer)
    const other = call('api', { tenant: 'k', via: 'api-key' })
    other.route = { surface: 'api', path: '/v2/request/:requestId' } as CallInfo['route']
    other.request.path = '/v2/request/0123'
    await middleware(other, answer)
    expect(recorded.map(({ entry }) => (entry as { path: string }).path)).toEqual([
      '/v2/request',
      '/v2/request/0123',
    ])
  })

  it('passes control and public calls through unrecorded', async () => {
    const { recorded, middleware } = setup()
    await middleware(call('control', { tenant: 'k', via: 'api-key' }), answer)
    await middleware(call('api', null), answer)
    expect(recorded).toEqual([])
  })
})
