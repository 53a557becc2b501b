// Slow or stuck clients are closed within the configured time while others are served; with --seed, a key's ids
// repeat whatever other keys do, and two keys never share them.
import { connect, type Socket } from 'node:net'
import { describe, expect, it } from 'vitest'
import { TenantIds } from '../../src/store/tenant-ids.ts'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'

const SEED = 4242
const t = useTransports(newApiKey, {
  chain: false,
  seed: SEED,
  timeouts: { headersMs: 300, requestMs: 600 },
})

/** Opens a socket and resolves when the server closes it, with what it received and when. */
function held(port: number, write: (socket: Socket) => void) {
  const socket = connect(port, '127.0.0.1')
  let received = ''
  socket.on('data', (chunk) => {
    received += chunk.toString()
  })
  const closed = new Promise<{ ms: number; received: string }>((resolve) => {
    const started = Date.now()
    socket.on('close', () => resolve({ ms: Date.now() - started, received }))
    socket.on('error', () => {})
  })
  socket.on('connect', () => write(socket))
  return { socket, closed }
}

describe('slow clients on the HTTP server', () => {
  it('closes sockets stuck in their headers or trickling their body within the timeouts, serving others meanwhile', async () => {
    const { port } = t.server
    const partialHeaders = Array.from({ length: 40 }, () =>
      held(port, (s) => s.write('GET /__sandbox/health HTTP/1.1\r\nHost: x\r\nX-Slow: ')),
    )
    const trickling = Array.from({ length: 10 }, () =>
      held(port, (s) => {
        s.write(
          'POST /v2/request HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
        )
        const timer = setInterval(() => s.writable && s.write(' '), 50)
        s.on('close', () => clearInterval(timer))
      }),
    )
    // a well-behaved client is served at once while the others hang
    const healthy = await fetch(`${t.server.url}/__sandbox/health`)
    expect(healthy.status).toBe(200)

    const headerResults = await Promise.all(partialHeaders.map((h) => h.closed))
    const bodyResults = await Promise.all(trickling.map((h) => h.closed))
    for (const r of headerResults) {
      expect(r.ms).toBeLessThan(300 + 1000)
      expect(r.received).toMatch(/^HTTP\/1\.1 408/)
    }
    for (const r of bodyResults) {
      expect(r.ms).toBeGreaterThanOrEqual(500)
      expect(r.ms).toBeLessThan(600 + 1000)
    }
    expect((await fetch(`${t.server.url}/__sandbox/health`)).status).toBe(200)
  })
})

describeTransports(
  'seeded ids through %s',
  () => t,
  (client) => {
    it('gives each key its own id sequence: the same whatever other keys do, never another key’s', async () => {
      const [a, b] = [newApiKey(), newApiKey()]
      const session = async (apiKey: string) =>
        (await client().call('POST', '/__sandbox/sessions', { apiKey, body: {} })).body.token as string
      const clientId = async (apiKey: string) => {
        const res = await client().call('POST', '/v2/client-ids', {
          apiKey,
          body: { label: 'shop', allowedDomains: ['https://shop.example'] },
        })
        expect(res.status).toBe(201)
        return res.body.clientId as string
      }
      // interleaved: a, b, b, a
      const aSession = await session(a)
      const bSession = await session(b)
      const bClient = await clientId(b)
      const aClient = await clientId(a)
      expect(aSession).not.toBe(bSession)
      expect(aClient).not.toBe(bClient)

      // what key a draws depends only on the seed and the key: a fresh generator for it predicts both ids
      const predicted = new TenantIds(SEED).for(a)
      expect(aSession).toBe(`sess_${predicted.hex(24)}`)
      predicted.ulid() // the client ID record's own id comes first
      expect(aClient).toBe(`cli_${predicted.hex(6)}`)
    })
  },
)
