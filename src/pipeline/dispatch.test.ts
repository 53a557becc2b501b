// The dispatcher runs its stages in their order (STAGE_ORDER): an unknown route answers 404 before any credential
// is read, a missing credential 401 before any middleware, a validation failure is rendered inside the middleware
// chain (the middlewares see the 400), and every answer leaves with its JSON serialised once and `nosniff`.

import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { Middleware } from '../contract/middleware.ts'
import type { NeutralRequest } from '../contract/neutral.ts'
import type { SandboxState } from '../control/services.ts'
import { createDispatcher } from './dispatch.ts'
import type { AnyRoute } from './stages.ts'
import { STAGE_ORDER } from './stages.ts'

const shared = {
  security: { allowedOrigins: new Set<string>(), exposed: false },
  portal: { standing: () => 'unknown' },
  log: () => {},
} as unknown as SandboxState

const routes: AnyRoute[] = [
  {
    method: 'POST',
    path: '/things/:id',
    credentials: ['api-key'],
    surface: 'api',
    summary: 'a thing',
    params: z.object({ id: z.string().min(3) }),
    body: z.object({ n: z.number() }),
    handler: (ctx, { params, body }) => ({
      status: 201,
      body: { id: params.id, n: body.n, tenant: ctx.tenant },
    }),
  },
  {
    method: 'GET',
    path: '/open',
    credentials: ['public'],
    surface: 'control',
    summary: 'public',
    handler: () => ({ status: 200, body: { open: true } }),
  },
]

const request = (method: string, path: string, headers: Record<string, string> = {}, rawBody?: string) =>
  ({ method, path, query: {}, headers, rawBody }) as NeutralRequest

function setup() {
  const seen: string[] = []
  const watch: Middleware = async (call, next) => {
    seen.push(`in ${call.caller?.tenant ?? 'public'}`)
    const response = await next()
    seen.push(`out ${response.status}`)
    return response
  }
  return { seen, dispatch: createDispatcher(routes, shared, { middleware: [watch] }) }
}

const json = { 'x-api-key': 'k', 'content-type': 'application/json' }

describe('dispatcher stages', () => {
  it('names its stages in the order a call meets them', () => {
    expect(STAGE_ORDER).toEqual(['route', 'authenticate', 'middlewares', 'validate', 'handle', 'render'])
  })

  it('answers an unknown route 404 and a missing credential 401 before any middleware runs', async () => {
    const { seen, dispatch } = setup()
    expect((await dispatch(request('GET', '/things/abc', json))).status).toBe(404)
    expect((await dispatch(request('POST', '/things/abc', {}, '{"n":1}'))).status).toBe(401)
    expect(seen).toEqual([])
  })

  it('validates inside the middleware chain: the middlewares see the 400', async () => {
    const { seen, dispatch } = setup()
    const short = await dispatch(request('POST', '/things/ab', json, '{"n":1}'))
    expect(short.status).toBe(400)
    const malformed = await dispatch(request('POST', '/things/abc', json, '{"n":'))
    expect(malformed.status).toBe(400)
    expect(seen).toEqual(['in k', 'out 400', 'in k', 'out 400'])
  })

  it("runs the handler with the caller's context and renders its answer once, with nosniff", async () => {
    const { seen, dispatch } = setup()
    const created = await dispatch(request('POST', '/things/a%20b/', json, '{"n":2}'))
    expect(created.status).toBe(201)
    expect(created.text).toBe('{"id":"a b","n":2,"tenant":"k"}')
    expect(created.headers['x-content-type-options']).toBe('nosniff')
    const open = await dispatch(request('get', '/open'))
    expect(open.body).toEqual({ open: true })
    expect(seen).toEqual(['in k', 'out 201', 'in public', 'out 200'])
  })

  it('answers a preflight 204 with CORS headers without matching a route', async () => {
    const { seen, dispatch } = setup()
    const preflight = await dispatch(request('OPTIONS', '/anything', { origin: 'https://app.example' }))
    expect(preflight.status).toBe(204)
    expect(preflight.headers['access-control-allow-origin']).toBe('*')
    expect(seen).toEqual([])
  })
})
