// The bench's raw-socket load generator counts what the server answered: every framing of an answer (a length,
// chunks, no body, the close), keep-alive and `connection: close`, and errors; a stuck answer ends the run.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { load } from '../../bench/load.ts'

let server: Server
let base = ''
const answered = { ok: 0, failed: 0 }
beforeAll(async () => {
  server = createServer((req, res) => {
    res.on('finish', () => {
      if (res.statusCode < 400) answered.ok++
      else answered.failed++
    })
    if (req.url === '/length') res.writeHead(200, { 'content-length': 2 }).end('ok')
    else if (req.url === '/chunked') {
      // a chunk whose bytes look like the last chunk's
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.write('a\r\n0\r\n\r\nb')
      setImmediate(() => res.end('tail'))
    } else if (req.url === '/empty') res.writeHead(204).end()
    else if (req.url === '/close') res.writeHead(200, { connection: 'close', 'content-length': 2 }).end('ok')
    else if (req.url === '/fail') res.writeHead(500, { 'content-length': 0 }).end()
    else res.writeHead(404).end()
  })
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

it.each(['/length', '/chunked', '/empty', '/close'])(
  '%s: every answer counted once, as completed, none as an error',
  async (path) => {
    answered.ok = answered.failed = 0
    const r = await load({ url: base + path, method: 'GET', concurrency: 4, durationMs: 300 })
    expect(r.errors).toBe(0)
    expect(r.completed).toBeGreaterThan(10)
    expect(r.completed).toBe(answered.ok)
  },
  10_000,
)

it('a 5xx answer is an error, not a completed request', async () => {
  answered.ok = answered.failed = 0
  const r = await load({ url: `${base}/fail`, method: 'GET', concurrency: 2, durationMs: 200 })
  expect(r.completed).toBe(0)
  expect(r.errors).toBe(answered.failed)
  expect(r.errors).toBeGreaterThan(10)
})

it.each(['/length', '/close'])(
  '%s: `requests` sends exactly that many calls in all, over every connection, and the run ends there',
  async (path) => {
    answered.ok = answered.failed = 0
    const started = Date.now()
    const r = await load({
      url: base + path,
      method: 'GET',
      concurrency: 4,
      durationMs: 60_000,
      requests: 37,
    })
    expect(r).toMatchObject({ completed: 37, errors: 0 })
    expect(answered.ok).toBe(37)
    // long before the 60 s deadline: the bound, not the clock, ended it
    expect(Date.now() - started).toBeLessThan(30_000)
  },
  40_000,
)
