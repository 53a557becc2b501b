import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandbox, type Sandbox } from '../../src/sandbox.ts'
import { createApp } from '../../src/transports/express.ts'
import { createHandlers } from '../../src/transports/msw.ts'

let sandbox: Sandbox
let httpBase: string
let close: () => void
const mswBase = 'https://strict.example/rn'

beforeAll(async () => {
  // the portal is on (--portal): without it strict mode has no portal (test/shared-demo/shared-demo.test.ts)
  sandbox = await createSandbox({ chain: false, apiKeys: ['key-a', 'key-b'], portal: true })
  const server = createApp(sandbox).listen(0, '127.0.0.1')
  await new Promise((r) => server.once('listening', r))
  httpBase = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  const msw = setupServer(...createHandlers(sandbox, { baseUrl: mswBase }))
  msw.listen({ onUnhandledRequest: 'bypass' })
  close = () => {
    msw.close()
    server.close()
  }
})
afterAll(async () => {
  close?.()
  await sandbox?.close()
})

describe.each([
  ['http', () => httpBase],
  ['msw (base URL with a path prefix)', () => mswBase],
])('strict API keys through %s', (_name, base) => {
  const get = (key?: string) =>
    fetch(`${base()}/v1/currencies?id=FAU-sepolia`, {
      headers: key === undefined ? {} : { 'x-api-key': key },
    })

  it('lets configured keys in', async () => {
    expect((await get('key-a')).status).toBe(200)
    expect((await get('key-b')).status).toBe(200)
  })

  it('answers 401 in the service shape to missing, empty and unknown keys', async () => {
    for (const key of [undefined, '', 'key-c']) {
      const res = await get(key)
      expect(res.status).toBe(401)
      expect(await res.json()).toEqual({ statusCode: 401, message: 'Unauthorized', error: 'Unauthorized' })
      expect(res.headers.get('x-sandbox-hint')).toMatch(/strict mode.*--api-keys/)
    }
  })

  it('with --portal, also lets keys the portal issued in, until they are disabled', async () => {
    const json = { 'content-type': 'application/json' }
    const email = `strict-${Math.random().toString(36).slice(2)}@example.com`
    const registered = await fetch(`${base()}/v2/auth/register`, {
      method: 'POST',
      headers: { ...json, cookie: 'session_token=none' },
      body: JSON.stringify({ email, password: 'a long password' }),
    })
    expect(registered.status).toBe(201)
    const cookie = registered.headers.get('set-cookie')!.split(';')[0]!
    const created = await fetch(`${base()}/v2/key`, {
      method: 'POST',
      headers: { ...json, cookie },
      body: JSON.stringify({ label: 'strict', isSandbox: true }),
    })
    const { key } = (await created.json()) as { key: string }
    expect((await get(key)).status).toBe(200)
    const keys = (await (await fetch(`${base()}/v2/key`, { headers: { cookie } })).json()) as { id: string }[]
    const id = keys[0]!.id
    expect((await fetch(`${base()}/v2/key/${id}`, { method: 'PUT', headers: { cookie } })).status).toBe(200)
    expect((await get(key)).status).toBe(401)
  })

  it('serves health without a key', async () => {
    const res = await fetch(`${base()}/__sandbox/health`)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ status: 'ok', chain: null })
  })
})
