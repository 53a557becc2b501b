// The Node listener calls the sandbox's `dispatch.now` (an answer at once when nothing in the call waited) and falls
// back to `dispatch` otherwise. A door wrapped around a sandbox (claimable sandboxes' `guarded`: a new `dispatch` on
// an object whose prototype is the sandbox) carries no `now`, so the listener never goes around it.
import { createServer, type Server } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import type { NeutralRequest, NeutralResponse } from '../../src/contract/neutral.ts'
import { createSandbox, type Sandbox } from '../../src/sandbox.ts'
import { createRequestListener } from '../../src/transports/node-http.ts'
import { CREATE_BODY } from '../support/dispatch.ts'

let server: Server | undefined
let sandbox: Sandbox | undefined
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)))
  await sandbox?.close()
  server = sandbox = undefined
})

async function serve(target: Sandbox): Promise<string> {
  server = createServer(createRequestListener(target))
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
}

describe("the Node listener and the sandbox's `dispatch.now`", () => {
  it('answers through `now` (the sandbox answers a create at once), the same bytes as `dispatch`', async () => {
    sandbox = await createSandbox({ chain: false })
    const calls: string[] = []
    const now = sandbox.dispatch.now!
    const counted = Object.create(sandbox, {
      dispatch: {
        value: Object.assign((request: NeutralRequest) => sandbox!.dispatch(request), {
          now: (request: NeutralRequest) => {
            calls.push(request.path)
            return now(request)
          },
        }),
      },
    }) as Sandbox
    const base = await serve(counted)
    const headers = { 'x-api-key': 'now-key', 'content-type': 'application/json' }
    const created = await fetch(`${base}/v2/request`, {
      method: 'POST',
      headers,
      body: JSON.stringify(CREATE_BODY),
    })
    expect(created.status).toBe(201)
    const { requestId } = (await created.json()) as { requestId: string }
    const read = await fetch(`${base}/v2/request/${requestId}`, { headers })
    expect(read.status).toBe(200)
    expect(calls).toEqual(['/v2/request', `/v2/request/${requestId}`])
  })

  it('never goes around a door that wraps `dispatch` (no `now` on the wrapper): every call meets the door', async () => {
    sandbox = await createSandbox({ chain: false })
    const seen: string[] = []
    const door = Object.create(sandbox, {
      dispatch: {
        value: async (request: NeutralRequest): Promise<NeutralResponse> => {
          seen.push(request.path)
          if (request.headers['x-api-key'] === 'refused')
            return { status: 401, headers: {}, body: { statusCode: 401, message: 'refused at the door' } }
          return sandbox!.dispatch(request)
        },
      },
    }) as Sandbox
    const base = await serve(door)
    const refused = await fetch(`${base}/v1/currencies`, { headers: { 'x-api-key': 'refused' } })
    expect(refused.status).toBe(401)
    expect(await refused.json()).toEqual({ statusCode: 401, message: 'refused at the door' })
    const passed = await fetch(`${base}/v1/currencies`, { headers: { 'x-api-key': 'welcome' } })
    expect(passed.status).toBe(200)
    expect(seen).toEqual(['/v1/currencies', '/v1/currencies'])
  })

  // The claimable door itself (`guarded`): test/claimable/claimable.test.ts, an expired key refused over HTTP
  it('types a door as a Sandbox without `now` (none to copy from the sandbox it wraps): every call meets it', async () => {
    sandbox = await createSandbox({ chain: false })
    const inner = sandbox
    const seen: string[] = []
    // typed, not cast: a sandbox's `dispatch` may come without `now` (claimable sandboxes' `guarded` is such a door)
    const door: Sandbox = {
      ...inner,
      dispatch: async (request) => {
        seen.push(request.path)
        return inner.dispatch(request)
      },
    }
    const base = await serve(door)
    const answer = await fetch(`${base}/v1/currencies`, { headers: { 'x-api-key': 'typed-door' } })
    expect(answer.status).toBe(200)
    expect(seen).toEqual(['/v1/currencies'])
  })
})
