// A webhook test server: an HTTP receiver on an OS port that verifies the signature of every delivery the way
// the service documents it (and the way easy-invoice checks it), and answers from a script (500, hang, ...).
import { createHmac, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Loose } from './loose.ts'
import { waitFor } from './wait.ts'

/** One request the receiver got. */
export interface Received {
  path: string
  headers: IncomingHttpHeaders
  raw: string
  body: Loose
  /** HMAC-SHA256(secret, raw bytes) equals x-request-network-signature */
  signatureValid: boolean
  /** JSON.stringify(JSON.parse(raw)) === raw: a receiver that re-serialises the parsed body verifies too */
  compact: boolean
  answered: number | 'hang'
}

/** A running receiver. */
export interface WebhookReceiver {
  url: string
  received: Received[]
  /** the secret deliveries are verified with */
  secret: string
  /** statuses (or 'hang') for the next requests, in order; 200 afterwards */
  script: (number | 'hang')[]
  /** resolves when `count` requests have arrived */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>
  close(): Promise<void>
}

/** Verifies a delivery as a receiver should: hex HMAC-SHA256 of the raw body, compared in constant time. */
export function verify(raw: string, signature: string | undefined, secret: string): boolean {
  if (!signature || !/^[0-9a-f]{64}$/.test(signature)) return false
  const expected = createHmac('sha256', secret).update(raw).digest()
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'))
}

/** Starts a receiver on 127.0.0.1 and an OS-assigned port. */
export async function startReceiver(): Promise<WebhookReceiver> {
  const received: Received[] = []
  const hanging = new Set<() => void>()
  const receiver: WebhookReceiver = {
    url: '',
    received,
    secret: '',
    script: [],
    async waitFor(count, timeoutMs = 10_000) {
      await waitFor(() => (received.length >= count ? true : undefined), { timeoutMs, intervalMs: 10 }).catch(
        () => {
          throw new Error(`receiver got ${received.length} of ${count} deliveries`)
        },
      )
      return received
    },
    async close() {
      for (const release of hanging) release()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      let body: unknown = null
      try {
        body = JSON.parse(raw)
      } catch {}
      const answer = receiver.script.shift() ?? 200
      const signature = req.headers['x-request-network-signature'] as string | undefined
      received.push({
        path: req.url ?? '/',
        headers: req.headers,
        raw,
        body,
        signatureValid: verify(raw, signature, receiver.secret),
        compact: body !== null && JSON.stringify(body) === raw,
        answered: answer,
      })
      if (answer === 'hang') {
        hanging.add(() => res.destroy())
        return
      }
      res.writeHead(answer, { 'content-type': 'application/json' }).end('{"success":true}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`
  return receiver
}
