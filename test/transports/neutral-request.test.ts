// What the Node listener hands the core: the path and query of the target, every header as one string (node:http
// gives set-cookie as a list: joined here), and the client's address.
import { createServer, type IncomingMessage, type Server } from 'node:http'
import { connect } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import type { DispatchTarget, NeutralRequest } from '../../src/contract/neutral.ts'
import { createRequestListener } from '../../src/transports/node-http.ts'

let server: Server | undefined
/** the node:http request the listener got last */
let incoming: IncomingMessage | undefined
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)))
  server = undefined
})

/** Sends `head` as it is over a socket; the neutral request the target saw. */
async function seen(head: string): Promise<NeutralRequest> {
  let got!: (request: NeutralRequest) => void
  const received = new Promise<NeutralRequest>((resolve) => (got = resolve))
  const target: DispatchTarget = {
    chain: null,
    log: () => {},
    dispatch: async (request) => {
      got(request)
      return { status: 204, headers: {}, body: undefined }
    },
  }
  const listener = createRequestListener(target)
  server = createServer((req, res) => {
    incoming = req
    listener(req, res)
  })
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  const socket = connect(port, '127.0.0.1')
  socket.on('error', () => {})
  socket.write(head)
  const request = await received
  socket.destroy()
  return request
}

describe('the neutral request of a Node request', () => {
  it('joins a repeated set-cookie, keeps the other headers as node:http gives them, and names the address', async () => {
    const request = await seen(
      'GET /v1/currencies?network=sepolia&network=base HTTP/1.1\r\nHost: x\r\nX-Api-Key: k\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\nAccept: text/plain\r\nAccept: application/json\r\n\r\n',
    )
    expect(request.path).toBe('/v1/currencies')
    expect(request.query).toEqual({ network: 'sepolia' })
    expect(request.headers['set-cookie']).toBe('a=1, b=2')
    expect(request.headers.accept).toBe('text/plain, application/json')
    expect(request.headers['x-api-key']).toBe('k')
    expect(request.remoteAddress).toBe('127.0.0.1')
    expect(Object.values(request.headers).every((value) => typeof value === 'string')).toBe(true)
    // a copy, with the list joined: node:http's own object is left as it is
    expect(request.headers).not.toBe(incoming!.headers)
    expect(incoming!.headers['set-cookie']).toEqual(['a=1', 'b=2'])
  })

  it('hands over node:http own headers object when no header came as a list', async () => {
    const request = await seen('GET /v1/currencies HTTP/1.1\r\nHost: x\r\nX-Api-Key: k\r\n\r\n')
    expect(request.headers).toEqual({ host: 'x', 'x-api-key': 'k' })
    expect(request.headers).toBe(incoming!.headers)
    expect(request.remoteAddress).toBe('127.0.0.1')
  })
})
