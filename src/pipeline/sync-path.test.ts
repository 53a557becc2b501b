// A call whose stages all answer at once is answered at once: no promise from the dispatcher (the Node listener
// then queues it with no microtask in between). A stage that waits (a handler's promise, a middleware that awaits,
// a commit) makes the answer a promise, with the same answer, errors rendered the same way either way.

import { describe, expect, it } from 'vitest'
import { CREATE_BODY } from '../../test/support/dispatch.ts'
import { isPromise } from '../contract/maybe-promise.ts'
import type { Middleware } from '../contract/middleware.ts'
import type { NeutralRequest, NeutralResponse } from '../contract/neutral.ts'
import type { SandboxState } from '../control/services.ts'
import { createSandbox } from '../sandbox.ts'
import { createDispatcher, type DispatchOptions } from './dispatch.ts'
import type { AnyRoute } from './stages.ts'

const shared = {
  security: { allowedOrigins: new Set<string>(), exposed: false },
  portal: { standing: () => 'unknown' },
  log: () => {},
} as unknown as SandboxState

class Teapot extends Error {
  status = 418
}

const route = (path: string, handler: AnyRoute['handler']): AnyRoute => ({
  method: 'GET',
  path,
  credentials: ['api-key'],
  surface: 'api',
  summary: path,
  handler,
})

const routes: AnyRoute[] = [
  route('/now', () => ({ status: 200, body: { at: 'now' } })),
  route('/later', async () => ({ status: 200, body: { at: 'now' } })),
  route('/throws', () => {
    throw new Error('thrown at once')
  }),
  route('/rejects', async () => {
    throw new Error('thrown later')
  }),
]

const get = (path: string) =>
  ({ method: 'GET', path, query: {}, headers: { 'x-api-key': 'k' }, rawBody: undefined }) as NeutralRequest

/** a middleware that does not wait: it sees the answer as it comes and records its status */
function watching(seen: unknown[]): Middleware {
  return (_call, next) => {
    const answer = next()
    if (isPromise(answer))
      return answer.then((response) => {
        seen.push(`later ${response.status}`)
        return response
      })
    seen.push(`now ${answer.status}`)
    return answer
  }
}

function dispatcher(seen: unknown[], options: DispatchOptions = {}) {
  return createDispatcher(routes, shared, { middleware: [watching(seen)], ...options })
}

describe('the synchronous call path', () => {
  it('answers a call at once when no stage waits, and through a promise when its handler does: the same answer', async () => {
    const seen: unknown[] = []
    const dispatch = dispatcher(seen)
    const now = dispatch(get('/now'))
    expect(isPromise(now)).toBe(false)
    const later = dispatch(get('/later'))
    expect(isPromise(later)).toBe(true)
    const { status, text, headers } = now as NeutralResponse
    expect({ status, text, headers }).toEqual({
      status: (await later).status,
      text: (await later).text,
      headers: (await later).headers,
    })
    expect(text).toBe('{"at":"now"}')
    expect(seen).toEqual(['now 200', 'later 200'])
  })

  it('renders an error thrown at once and a rejection alike, inside the middleware chain', async () => {
    const seen: unknown[] = []
    const dispatch = dispatcher(seen)
    const thrown = dispatch(get('/throws'))
    expect(isPromise(thrown)).toBe(false)
    const rejected = await dispatch(get('/rejects'))
    expect((thrown as NeutralResponse).status).toBe(500)
    expect(rejected.status).toBe(500)
    expect((thrown as NeutralResponse).text).toBe(rejected.text)
    expect(seen).toEqual(['now 500', 'later 500'])
    // an error a middleware throws at once is rendered by the dispatcher, at once
    const failing = createDispatcher(routes, shared, {
      middleware: [
        () => {
          throw new Teapot('no coffee')
        },
      ],
    })
    const answer = failing(get('/now'))
    expect(isPromise(answer)).toBe(false)
    expect((answer as NeutralResponse).status).toBe(500)
  })

  it('still runs a middleware that awaits `next` (its answer is then a promise)', async () => {
    const seen: unknown[] = []
    const awaiting: Middleware = async (_call, next) => {
      const response = await next()
      seen.push(`awaited ${response.status}`)
      return response
    }
    const dispatch = createDispatcher(routes, shared, { middleware: [awaiting, watching(seen)] })
    const answer = dispatch(get('/now'))
    expect(isPromise(answer)).toBe(true)
    expect((await answer).status).toBe(200)
    expect(seen).toEqual(['now 200', 'awaited 200'])
  })

  it('waits for the commit of a call that changed something (--state-dir) before its answer leaves', async () => {
    const seen: unknown[] = []
    let release!: () => void
    const commit = new Promise<void>((resolve) => {
      release = resolve
    })
    const dispatch = dispatcher(seen, { durable: () => commit })
    const answer = dispatch(get('/now'))
    expect(isPromise(answer)).toBe(true)
    let left = false
    void (answer as Promise<NeutralResponse>).then(() => {
      left = true
    })
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(left).toBe(false)
    release()
    expect((await answer).status).toBe(200)
    expect((await answer).headers['x-content-type-options']).toBe('nosniff')
  })

  it("answers the sandbox's create and currency list at once, journaled; a delayed call and `dispatch` by a promise", async () => {
    const sandbox = await createSandbox({ chain: false })
    try {
      const body = JSON.stringify(CREATE_BODY)
      const headers = { 'x-api-key': 'sync-key', 'content-type': 'application/json' }
      const as = (method: string, path: string, rawBody?: string, more: Record<string, string> = {}) =>
        ({ method, path, query: {}, headers: { ...headers, ...more }, rawBody }) as NeutralRequest
      // the key's world is seeded by its first call (a wait): the calls after it wait for nothing
      await sandbox.dispatch(as('GET', '/v1/currencies'))
      // the sandbox's own dispatch carries `now` (a door typed as a Sandbox may not)
      const now = sandbox.dispatch.now!
      const created = now(as('POST', '/v2/request', body))
      expect(isPromise(created)).toBe(false)
      expect((created as NeutralResponse).status).toBe(201)
      const { requestId } = JSON.parse((created as NeutralResponse).text!)
      const read = now(as('GET', '/v1/currencies'))
      expect(isPromise(read)).toBe(false)
      expect((read as NeutralResponse).status).toBe(200)
      expect((await sandbox.dispatch(as('GET', `/v2/request/${requestId}`))).status).toBe(200)
      const calls = sandbox.shared.journal
        .list('sync-key')
        .flatMap((entry) => (entry.type === 'call' ? [`${entry.method} ${entry.path} ${entry.status}`] : []))
      expect(calls).toContain('POST /v2/request 201')
      const delayed = now(as('GET', '/v1/currencies', undefined, { 'x-sandbox-delay': '5' }))
      expect(isPromise(delayed)).toBe(true)
      expect((await delayed).status).toBe(200)
      expect(isPromise(sandbox.dispatch(as('GET', '/v1/currencies')))).toBe(true)
    } finally {
      await sandbox.close()
    }
  })
})
