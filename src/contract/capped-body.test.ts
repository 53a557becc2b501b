import { createServer, type IncomingMessage, type Server } from 'node:http'
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CappedBody, readCappedBody } from './capped-body.ts'
import { MAX_BODY_BYTES } from './neutral.ts'

let server: Server
let port = 0
/** what the server read of each request, by its path */
const read = new Map<string, (body: CappedBody) => void>()
beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    void readCappedBody(req).then((body) => {
      read.get(req.url ?? '')?.(body)
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify('over' in body ? 'over' : 'cut' in body ? 'cut' : body.text.length))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as { port: number }).port
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const bodyRead = (path: string) => new Promise<CappedBody>((resolve) => read.set(path, resolve))
const post = async (path: string, body: string) =>
  (await fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', body })).json()

describe('readCappedBody', () => {
  it('reads a body up to the bound whole, and none as empty', async () => {
    expect(await post('/small', 'x'.repeat(MAX_BODY_BYTES))).toBe(MAX_BODY_BYTES)
    expect(await post('/empty', '')).toBe(0)
  })

  it('answers past the bound, as declared or as sent, reading the rest on the same connection', async () => {
    expect(await post('/over', 'x'.repeat(MAX_BODY_BYTES + 1))).toBe('over')
    // chunked: no length declared, the bytes sent count
    const chunked = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 3; i++) controller.enqueue(new Uint8Array(MAX_BODY_BYTES / 2))
        controller.close()
      },
    })
    const answer = await fetch(`http://127.0.0.1:${port}/chunked`, {
      method: 'POST',
      body: chunked,
      duplex: 'half',
    } as RequestInit)
    expect(await answer.json()).toBe('over')
  })

  it('settles a body whose client went away before it arrived whole', async () => {
    const settled = bodyRead('/gone')
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`POST /gone HTTP/1.1\r\nhost: x\r\ncontent-length: 100\r\n\r\nonly part`)
      setTimeout(() => socket.destroy(), 50)
    })
    expect(await settled).toEqual({ cut: true })
  })
})
