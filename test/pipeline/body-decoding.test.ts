// The node:http transport reads a body in chunks: a character split between two TCP writes must arrive whole,
// and a body past the limit is still refused with 413.
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_BODY_BYTES } from '../../src/contract/neutral.ts'
import { requestState } from '../../src/resources/requests/index.ts'
import { type RunningServer, startServer } from '../../src/server.ts'

let server: RunningServer
beforeAll(async () => {
  server = await startServer({ chain: false })
})
afterAll(() => server.close())

/** Sends a raw HTTP/1.1 POST whose body goes out in the given pieces, a pause between them; returns the answer. */
function post(path: string, apiKey: string, pieces: Buffer[]): Promise<{ status: number; body: string }> {
  const length = pieces.reduce((n, p) => n + p.length, 0)
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1')
    const received: Buffer[] = []
    socket.on('data', (d) => received.push(d))
    socket.on('error', reject)
    socket.on('end', () => {
      const text = Buffer.concat(received).toString('utf8')
      resolve({ status: Number(text.slice(9, 12)), body: text.slice(text.indexOf('\r\n\r\n') + 4) })
    })
    socket.write(
      `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nx-api-key: ${apiKey}\r\ncontent-type: application/json\r\n` +
        `content-length: ${length}\r\nconnection: close\r\n\r\n`,
    )
    const next = (i: number) => {
      if (i === pieces.length) return
      socket.write(pieces[i]!)
      setTimeout(() => next(i + 1), 30)
    }
    next(0)
  })
}

describe('request bodies over the node:http transport', () => {
  it('keeps a multi-byte character whole when it is split between two chunks', async () => {
    const reference = 'Facture n° 12 — 150 € ✓'
    const bytes = Buffer.from(
      JSON.stringify({
        amount: '10',
        invoiceCurrency: 'FAU-sepolia',
        paymentCurrency: 'FAU-sepolia',
        payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
        reference,
      }),
    )
    // cut inside the three bytes of "€"
    const cut = bytes.indexOf(Buffer.from('€')) + 1
    const created = await post('/v2/request', 'body-decoding', [bytes.subarray(0, cut), bytes.subarray(cut)])
    expect(created.status).toBe(201)
    const { requestId } = JSON.parse(created.body) as { requestId: string }
    const status = await fetch(`${server.url}/v2/request/${requestId}`, {
      headers: { 'x-api-key': 'body-decoding' },
    })
    expect(((await status.json()) as { reference: string }).reference).toBe(reference)
  })

  it('refuses a body past the limit with 413 in the error shape, whatever its chunks', async () => {
    const big = Buffer.from(JSON.stringify({ amount: '1', pad: 'x'.repeat(MAX_BODY_BYTES) }))
    const answer = await post('/v2/request', 'body-decoding', [big.subarray(0, 70_000), big.subarray(70_000)])
    expect(answer.status).toBe(413)
    expect(JSON.parse(answer.body)).toMatchObject({ statusCode: 413, error: 'Payload Too Large' })
  })

  it('answers large bodies sent together, while clients that leave mid-body are dropped', async () => {
    const body = (i: number) =>
      JSON.stringify({
        amount: String(i + 1),
        invoiceCurrency: 'FAU-sepolia',
        paymentCurrency: 'FAU-sepolia',
        payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
        // 300 kB in strings within the per-field bound (16,384 characters)
        pad: Array.from({ length: 20 }, () => 'x'.repeat(15_000)),
      })
    const stored = () => requestState(server.sandbox.shared.tenants.get('body-decoding')).requests.size
    const before = stored()
    // two clients send half their body and leave
    const leavers = [0, 1].map(
      () =>
        new Promise<void>((resolve) => {
          const socket = connect(server.port, '127.0.0.1', () => {
            const half = body(0).slice(0, 100_000)
            socket.write(
              `POST /v2/request HTTP/1.1\r\nhost: 127.0.0.1\r\nx-api-key: body-decoding\r\ncontent-type: application/json\r\ncontent-length: ${body(0).length}\r\n\r\n${half}`,
            )
            setTimeout(() => {
              socket.destroy()
              resolve()
            }, 100)
          })
          socket.on('error', () => resolve())
        }),
    )
    await new Promise((r) => setTimeout(r, 30))
    // five whole large bodies at once, meanwhile
    const answers = Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        fetch(`${server.url}/v2/request`, {
          method: 'POST',
          headers: { 'x-api-key': 'body-decoding', 'content-type': 'application/json' },
          body: body(i),
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as { requestId?: string } })),
      ),
    )
    await Promise.all(leavers)
    const done = await answers
    expect(done.map((a) => a.status)).toEqual([201, 201, 201, 201, 201])
    expect(new Set(done.map((a) => a.body.requestId)).size).toBe(5)
    // the leavers' half bodies created nothing
    expect(stored()).toBe(before + 5)
  })

  it('answers a client that half-closes its socket right after its whole request', async () => {
    const body = JSON.stringify({
      amount: '3',
      invoiceCurrency: 'FAU-sepolia',
      paymentCurrency: 'FAU-sepolia',
      payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
    })
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect({ port: server.port, host: '127.0.0.1', allowHalfOpen: true }, () => {
        socket.end(
          `POST /v2/request HTTP/1.1\r\nhost: 127.0.0.1\r\nx-api-key: body-decoding\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
        )
      })
      const received: Buffer[] = []
      socket.on('data', (d) => received.push(d))
      socket.on('end', () => resolve(Buffer.concat(received).toString('utf8')))
      socket.on('error', reject)
    })
    expect(answer.slice(0, 12)).toBe('HTTP/1.1 201')
  })
})
