// request-sandbox proxy forwards what the service answered as it answered it: an answer larger than a recording
// keeps goes to the app whole (the recording keeps its first MAX_RECORDED_BODY bytes and says it is cut), every cookie
// the service sets is its own header, and a secret-named field of a JSON answer cut at a bound (so no longer JSON) is
// masked in the recording all the same.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { MAX_RECORDED_BODY, maskBody } from '../../src/verify/har.ts'
import { startProxy } from '../../src/verify/index.ts'
import { MAX_BODY_BYTES } from '../../src/verify/targets.ts'

const size = MAX_BODY_BYTES + 1024 * 1024
const token = `tok_${Math.random().toString(36).slice(2, 14)}Secret`
const dir = mkdtempSync(join(tmpdir(), 'verify-proxy-large-'))
const har = join(dir, 'session.har')
let service: Server
let proxy: Awaited<ReturnType<typeof startProxy>>

beforeAll(async () => {
  service = createServer((request, response) => {
    const padding = Number(new URL(request.url ?? '/', 'http://x').searchParams.get('padding') ?? 0)
    if (padding) {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ sessionToken: token, padding: 'x'.repeat(padding) }))
      return
    }
    if (request.url === '/v2/cookies') {
      response.writeHead(200, { 'set-cookie': ['session=s1; HttpOnly', '__cf_bm=b2; Secure'] })
      response.end()
      return
    }
    response.writeHead(200, { 'content-type': 'text/plain' })
    response.end('x'.repeat(size))
  })
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve))
  const { port } = service.address() as AddressInfo
  proxy = await startProxy({ target: `http://127.0.0.1:${port}`, record: har })
})
afterAll(async () => {
  await proxy?.close()
  await new Promise((resolve) => service?.close(resolve))
  rmSync(dir, { recursive: true, force: true })
})

it('forwards an answer past the recording bound whole and records its first part', async () => {
  const response = await fetch(`${proxy.url}/v2/large`)
  expect(response.status).toBe(200)
  const body = await response.text()
  expect(body.length).toBe(size)
  expect(proxy.recorded()).toBe(1)
  const entry = JSON.parse(readFileSync(har, 'utf8')).log.entries[0]
  expect(entry.response.content.text.length).toBe(MAX_RECORDED_BODY)
  expect(entry.comment).toMatch(/cut/)
})

it('masks the secret fields of a JSON answer past a bound, kept or cut', async () => {
  const before = proxy.recorded()
  for (const padding of [2 * 1024 * 1024, MAX_BODY_BYTES + 1024]) {
    const response = await fetch(`${proxy.url}/v2/session?padding=${padding}`)
    expect(((await response.json()) as { sessionToken: string }).sessionToken).toBe(token)
  }
  const recording = readFileSync(har, 'utf8')
  expect(JSON.parse(recording).log.entries).toHaveLength(before + 2)
  expect(recording).not.toContain(token)
  expect(recording).toContain(`"sessionToken\\":\\"xxx_`)
})

it('masks secret-named fields of JSON text cut at a bound, closed or cut off', () => {
  const cut = maskBody(
    `{"a":1,"sessionToken":"${token}","b":{"signingSecret" : "whsec_1234\\"5678","c":"x`,
    [],
  )
  expect(cut).not.toContain(token)
  expect(cut).not.toContain('whsec_1234')
  expect(cut).not.toContain('5678')
  expect(cut).toContain('"c":"x')
  expect(maskBody(`[{"apiKey":"${token}`, [])).not.toContain(token.slice(0, 8))
})

it('forwards every cookie the service sets, each as its own set-cookie header', async () => {
  const response = await fetch(`${proxy.url}/v2/cookies`)
  expect(response.headers.getSetCookie()).toEqual(['session=s1; HttpOnly', '__cf_bm=b2; Secure'])
})
