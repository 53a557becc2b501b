// A deliberately drifted service for verify's tests: a sandbox behind an HTTP proxy that changes chosen answers
// (a field renamed, a type changed, a status code changed, an enum value added, a header dropped).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Loose } from '../support/loose.ts'

/** One planted difference: which calls it changes and how. */
export interface Drift {
  /** the operation verify should name */
  operation: string
  /** the difference verify should report: its kind and path */
  kind: string
  path: string
  /** the calls it applies to: method and a pattern of the path and query */
  method: string
  url: RegExp
  apply(answer: { status: number; headers: Record<string, string>; body: Loose }): void
}

/** The five drifts of the issue, each on a call the catalogue makes. */
export const DRIFTS: Drift[] = [
  {
    operation: 'GET /v2/request/{requestId}',
    kind: 'renamed-field',
    path: '$.isPaid',
    method: 'GET',
    url: /^\/v2\/request\/01[0-9a-f]{64}$/,
    apply(answer) {
      if (answer.status !== 200) return
      answer.body.isPaid = answer.body.hasBeenPaid
      delete answer.body.hasBeenPaid
    },
  },
  {
    operation: 'GET /v2/request/{requestId}/routes',
    kind: 'type',
    path: '$.routes[*].fee',
    method: 'GET',
    url: /^\/v2\/request\/[^/]+\/routes\?/,
    apply(answer) {
      if (answer.status !== 200) return
      for (const route of answer.body.routes) route.fee = String(route.fee)
    },
  },
  {
    operation: 'POST /v2/webhook',
    kind: 'status',
    path: 'status',
    method: 'POST',
    url: /^\/v2\/webhook$/,
    apply(answer) {
      if (answer.status === 201) answer.status = 200
    },
  },
  {
    operation: 'GET /v2/currencies',
    kind: 'enum',
    path: '$[*].type',
    method: 'GET',
    url: /^\/v2\/currencies$/,
    apply(answer) {
      if (answer.status !== 200) return
      const erc20 = answer.body.find((c: Loose) => c.type === 'ERC20')
      erc20.type = 'ERC777'
    },
  },
  {
    operation: 'GET /v2/client-ids',
    kind: 'header',
    path: 'header content-type',
    method: 'GET',
    url: /^\/v2\/client-ids$/,
    apply(answer) {
      delete answer.headers['content-type']
    },
  },
]

async function read(stream: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/** A drifted server in front of `upstream`, on a free port. */
export async function startDriftedServer(
  upstream: string,
  drifts: Drift[] = DRIFTS,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    forward(req, res).catch((error: Error) => res.writeHead(502).end(error.message))
  })
  const forward = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await read(req)
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === 'string' && name !== 'host' && name !== 'connection') headers[name] = value
    const answer = await fetch(upstream + req.url, {
      method: req.method!,
      headers,
      ...(body.length ? { body: new Uint8Array(body) } : {}),
    })
    const text = await answer.text()
    const out = { status: answer.status, headers: {} as Record<string, string>, body: undefined as Loose }
    answer.headers.forEach((value, name) => {
      if (!['content-length', 'connection', 'keep-alive', 'transfer-encoding'].includes(name))
        out.headers[name] = value
    })
    const drift = drifts.filter((d) => d.method === req.method && d.url.test(req.url!))
    if (drift.length && text) {
      out.body = JSON.parse(text)
      for (const d of drift) d.apply(out)
      res.writeHead(out.status, out.headers).end(JSON.stringify(out.body))
      return
    }
    for (const d of drift) d.apply(out)
    res.writeHead(out.status, out.headers).end(text)
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
