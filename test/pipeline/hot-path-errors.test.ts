// The request hot path over a real server: a bad header, a body past its bounds, an unknown scenario or a bad path
// parameter is answered with a 4xx in the service's error shape by the middlewares (which return next() without an
// async layer of their own) and the dispatcher; nothing rejects unhandled, nothing hangs, the server keeps serving.
import { connect } from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { MAX_BODY_DEPTH } from '../../src/contract/body-limits.ts'
import { MAX_BODY_BYTES } from '../../src/contract/neutral.ts'
import { newApiKey, useTransports } from '../support/clients.ts'

const t = useTransports()
const unhandled: unknown[] = []
const onUnhandled = (reason: unknown) => unhandled.push(reason)
beforeAll(() => {
  process.on('unhandledRejection', onUnhandled)
})
afterAll(() => {
  process.off('unhandledRejection', onUnhandled)
  // every call of the file, not only those before one test
  expect(unhandled).toEqual([])
})

async function call(
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string },
) {
  const res = await fetch(t.server.url + path, {
    method: init.method ?? 'GET',
    headers: { 'x-api-key': newApiKey(), ...init.headers },
    ...(init.body !== undefined ? { body: init.body } : {}),
    signal: AbortSignal.timeout(10_000),
  })
  const text = await res.text()
  return { status: res.status, body: JSON.parse(text) as { statusCode: number; message: unknown } }
}

const json = { 'content-type': 'application/json' }
const nested = (levels: number) => {
  let value: unknown = 1
  for (let i = 0; i < levels; i++) value = { n: value }
  return JSON.stringify(value)
}

it.each([
  ['x-sandbox-delay that is not a number', '/v2/request/x', { 'x-sandbox-delay': 'soon' }, 400],
  ['x-sandbox-delay past the bound', '/v2/request/x', { 'x-sandbox-delay': '99999999' }, 400],
  ['x-sandbox-status that is no error status', '/v2/request/x', { 'x-sandbox-status': '200' }, 400],
  ['x-sandbox-status that is not a status', '/v2/request/x', { 'x-sandbox-status': 'boom' }, 400],
  [
    'x-sandbox-webhook-chaos that is not understood',
    '/v2/request/x',
    { 'x-sandbox-webhook-chaos': 'x:y' },
    400,
  ],
  [
    'x-sandbox-webhook-chaos past its bound',
    '/v2/request/x',
    { 'x-sandbox-webhook-chaos': 'delay:99999999' },
    400,
  ],
])('%s: a 4xx in the error shape', async (_name, path, headers, status) => {
  const res = await call(path, { headers })
  expect(res.status).toBe(status)
  expect(res.body.statusCode).toBe(status)
  expect(typeof res.body.message).toBe('string')
})

it('an unknown x-sandbox-scenario: a 4xx in the error shape naming it', async () => {
  const res = await call('/v2/request/x', { headers: { 'x-sandbox-scenario': 'no-such-scenario' } })
  expect(res.status).toBeGreaterThanOrEqual(400)
  expect(res.status).toBeLessThan(500)
  expect(res.body.statusCode).toBe(res.status)
  expect(JSON.stringify(res.body)).toContain('no-such-scenario')
})

it('a malformed path parameter, an unsupported content type and malformed JSON: 4xx', async () => {
  expect((await call('/v2/request/%E0%A4%A', {})).status).toBe(400)
  const post = (headers: Record<string, string>, body: string) =>
    call('/v2/request', { method: 'POST', headers, body })
  expect((await post({ 'content-type': ';;;' }, '{}')).status).toBe(415)
  expect((await post(json, '{"amount":')).status).toBe(400)
})

it('bodies past their bounds: a 400 naming the field, before any handler', async () => {
  const post = (body: string) => call('/v2/request', { method: 'POST', headers: json, body })
  const deep = await post(nested(MAX_BODY_DEPTH + 1))
  expect(deep.status).toBe(400)
  expect(JSON.stringify(deep.body)).toContain(Array(MAX_BODY_DEPTH).fill('n').join('.'))
  const long = await post(JSON.stringify({ reference: 'x'.repeat(20_000) }))
  expect(long.status).toBe(400)
  expect(JSON.stringify(long.body)).toContain('reference')
  const many = await post(JSON.stringify({ items: Array(1001).fill(1) }))
  expect(many.status).toBe(400)
  expect(JSON.stringify(many.body)).toContain('items')
})

it('a body past the byte limit is a 413 even when it is all blanks', async () => {
  const res = await call('/v2/request', {
    method: 'POST',
    headers: json,
    body: ' '.repeat(MAX_BODY_BYTES + 1),
  })
  expect(res.status).toBe(413)
  expect(res.body.statusCode).toBe(413)
})

/** The status line of a raw HTTP/1.1 request (fetch does not let a test choose the Host header or send a malformed one). */
async function rawStatus(head: string): Promise<string> {
  const url = new URL(t.server.url)
  const answer = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname)
    let data = ''
    socket.setEncoding('latin1')
    socket.on('data', (chunk: string) => {
      data += chunk
    })
    socket.on('close', () => resolve(data))
    socket.on('error', reject)
    socket.setTimeout(5000, () => socket.destroy())
    socket.write(head)
  })
  return answer.split('\r\n')[0]!
}

it('a raw request with a malformed header value is refused by the parser and the server keeps serving', async () => {
  const status = await rawStatus(
    `GET /v2/request/x HTTP/1.1\r\nhost: x\r\nx-sandbox-delay: 1\u0001\r\nconnection: close\r\n\r\n`,
  )
  expect(status).toMatch(/^HTTP\/1\.1 4\d\d /)
  expect((await call('/v2/request/x', {})).status).toBe(404)
  expect(unhandled).toEqual([])
})

it('a request target in absolute form is served by its path (RFC 9112 §3.2.2)', async () => {
  const { host } = new URL(t.server.url)
  const key = newApiKey()
  const head = (target: string) =>
    `GET ${target} HTTP/1.1\r\nhost: ${host}\r\nx-api-key: ${key}\r\nconnection: close\r\n\r\n`
  expect(await rawStatus(head(`http://${host}/v2/request?limit=1`))).toBe('HTTP/1.1 200 OK')
  expect(await rawStatus(head(`HTTP://${host}/v2/request/nope`))).toBe('HTTP/1.1 404 Not Found')
  // no path: the root's answer
  expect(await rawStatus(head(`http://${host}?x=1`))).toBe(await rawStatus(head('/?x=1')))
})

it.each(['localhost:99999', '[:::]', '[::1]:70000'])(
  'a Host header %s that is no URL host, with an Origin: never a 500',
  async (host) => {
    const key = newApiKey()
    // the portal's cookie routes read the Origin for their CORS answer
    const cookieRoute = await rawStatus(
      `POST /v1/payee-destination HTTP/1.1\r\nhost: ${host}\r\norigin: http://localhost:3000\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`,
    )
    expect(cookieRoute).toMatch(/^HTTP\/1\.1 4\d\d /)
    // a control-API write checks the Origin against the sandbox's own host
    const body = JSON.stringify({ scenario: 'default' })
    const control = await rawStatus(
      `PUT /__sandbox/scenario HTTP/1.1\r\nhost: ${host}\r\norigin: http://evil.example\r\nx-api-key: ${key}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`,
    )
    expect(control).toMatch(/^HTTP\/1\.1 403 /)
  },
)
