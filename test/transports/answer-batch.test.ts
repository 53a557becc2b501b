// The Node listener writes the answers that became ready in one turn of the event loop together, at the end of its
// I/O phase (src/transports/node-http.ts, createAnswerBatch): each answer still goes whole to its own client, in the
// order of that client's requests, and a client gone while its answer waited costs nothing.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { connect } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import {
  type DispatchTarget,
  MAX_BODY_BYTES,
  type NeutralRequest,
  type NeutralResponse,
} from '../../src/contract/neutral.ts'
import { createRequestListener } from '../../src/transports/node-http.ts'

interface Pending {
  request: NeutralRequest
  answer(response: NeutralResponse): void
}

/** A dispatch target whose calls wait until the test answers them; what it logged. */
function heldTarget(): {
  target: DispatchTarget
  pending: Pending[]
  logged: unknown[]
  called: Promise<void>[]
} {
  const pending: Pending[] = []
  const logged: unknown[] = []
  const waiters: (() => void)[] = []
  const called: Promise<void>[] = Array.from(
    { length: 10 },
    (_, i) => new Promise<void>((resolve) => (waiters[i] = resolve)),
  )
  const target: DispatchTarget = {
    chain: null,
    log: (message, error) => logged.push([message, error]),
    dispatch: (request) =>
      new Promise<NeutralResponse>((resolve) => {
        pending.push({ request, answer: resolve })
        waiters[pending.length - 1]?.()
      }),
  }
  return { target, pending, logged, called }
}

const json = (body: unknown, status = 200): NeutralResponse => ({ status, headers: {}, body })

let server: Server | undefined
afterEach(async () => {
  server?.closeAllConnections()
  await new Promise((resolve) => server?.close(resolve))
  server = undefined
})

/** A server on port 0 with the listener; each `res` it handled, in order. */
async function listen(
  target: DispatchTarget,
): Promise<{ port: number; responses: ServerResponse[]; requests: IncomingMessage[] }> {
  const listener = createRequestListener(target)
  const responses: ServerResponse[] = []
  const requests: IncomingMessage[] = []
  server = createServer((req, res) => {
    responses.push(res)
    requests.push(req)
    listener(req, res)
  })
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  return { port: (server.address() as { port: number }).port, responses, requests }
}

/** Sends raw bytes on one connection and resolves with everything read until `until` holds. */
function exchange(port: number, bytes: string, until: (text: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes))
    let text = ''
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1')
      if (until(text)) {
        socket.destroy()
        resolve(text)
      }
    })
    socket.on('error', reject)
  })
}

const turn = () => new Promise((resolve) => setImmediate(resolve))

describe('answers written in batches', () => {
  it('writes the answers of one turn after it, together, each to its own client', async () => {
    const held = heldTarget()
    const { port, responses } = await listen(held.target)
    const calls = [0, 1, 2].map((i) =>
      fetch(`http://127.0.0.1:${port}/v1/thing/${i}`).then(async (r) => ({
        status: r.status,
        type: r.headers.get('content-type'),
        length: r.headers.get('content-length'),
        body: await r.json(),
      })),
    )
    await Promise.all(held.called.slice(0, 3))
    for (const [i, call] of held.pending.entries()) call.answer(json({ path: call.request.path }, 200 + i))
    // the answers are ready (their dispatch resolved in this turn) and none is written yet
    await null
    await null
    expect(responses.map((res) => res.headersSent)).toEqual([false, false, false])
    await turn()
    expect(responses.map((res) => res.writableEnded)).toEqual([true, true, true])
    const answers = await Promise.all(calls)
    const byPath = new Map(held.pending.map((call, i) => [call.request.path, 200 + i]))
    for (const [i, answer] of answers.entries()) {
      const path = `/v1/thing/${i}`
      expect(answer).toEqual({
        status: byPath.get(path),
        type: 'application/json; charset=utf-8',
        length: String(Buffer.byteLength(JSON.stringify({ path }))),
        body: { path },
      })
    }
  })

  it('keeps the order of one connection: pipelined calls come back in request order', async () => {
    const held = heldTarget()
    const { port } = await listen(held.target)
    const request = (i: number) => `GET /v1/thing/${i} HTTP/1.1\r\nhost: x\r\n\r\n`
    const read = exchange(
      port,
      request(0) + request(1) + request(2),
      (text) => (text.match(/"n":\d/g) ?? []).length === 3,
    )
    // node:http hands a pipelined call to the listener once the one before it is answered: answer each as it comes,
    // the later ones in the same turn as the batch's write of the earlier
    await held.called[0]
    held.pending[0]!.answer(json({ n: 0 }))
    await held.called[1]
    held.pending[1]!.answer(json({ n: 1 }))
    await held.called[2]
    held.pending[2]!.answer(json({ n: 2 }))
    const text = await read
    expect(text.match(/"n":\d/g)).toEqual(['"n":0', '"n":1', '"n":2'])
    expect(text.match(/HTTP\/1\.1 200 OK/g)).toHaveLength(3)
  })

  it('drops the answer of a client gone while it waited, and goes on serving the others', async () => {
    const held = heldTarget()
    const { port, responses } = await listen(held.target)
    const gone = connect(port, '127.0.0.1', () => gone.write('GET /v1/gone HTTP/1.1\r\nhost: x\r\n\r\n'))
    await held.called[0]
    const closed = new Promise((resolve) => responses[0]!.once('close', resolve))
    gone.destroy()
    await closed
    held.pending[0]!.answer(json({ late: true }))
    const kept = fetch(`http://127.0.0.1:${port}/v1/kept`).then((r) => r.json())
    await held.called[1]
    held.pending[1]!.answer(json({ kept: true }))
    expect(await kept).toEqual({ kept: true })
    expect(responses[0]!.headersSent).toBe(false)
    expect(held.logged).toEqual([])
  })

  it('writes the answer to a body over the bound, then closes that connection', async () => {
    const held = heldTarget()
    const { port, responses, requests } = await listen(held.target)
    const big = 'x'.repeat(6 * 1024 * 1024)
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(
        `POST /v2/request HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${big.length}\r\n\r\n${big}`,
      ),
    )
    socket.on('error', () => {})
    await held.called[0]
    expect(held.pending[0]!.request.rawBody!.length).toBeGreaterThan(MAX_BODY_BYTES)
    held.pending[0]!.answer(json({ message: 'too large' }, 413))
    await null
    await null
    expect(requests[0]!.destroyed).toBe(false)
    await turn()
    expect(responses[0]!.statusCode).toBe(413)
    expect(responses[0]!.writableEnded).toBe(true)
    expect(requests[0]!.destroyed).toBe(true)
    socket.destroy()
    // the server still serves
    const next = fetch(`http://127.0.0.1:${port}/v1/next`).then((r) => r.status)
    await held.called[1]
    held.pending[1]!.answer(json({}))
    expect(await next).toBe(200)
  })
})

describe('an answer the batch cannot write', () => {
  it('gets the 500 in the service shape, and the other answers of its batch are written', async () => {
    const held = heldTarget()
    const { port } = await listen(held.target)
    const answered = (path: string) =>
      fetch(`http://127.0.0.1:${port}${path}`).then(async (r) => ({ status: r.status, body: await r.json() }))
    const bad = answered('/v1/bad')
    await held.called[0]
    const good = answered('/v1/good')
    await held.called[1]
    // a header value node:http refuses (a character past U+00FF): its writeHead throws in the batch's write
    held.pending[0]!.answer({ status: 200, headers: { 'x-note': 'caf\u00e9 \u20ac' }, body: { bad: true } })
    held.pending[1]!.answer(json({ good: true }))
    expect(await good).toEqual({ status: 200, body: { good: true } })
    expect(await bad).toEqual({
      status: 500,
      body: { statusCode: 500, message: 'Internal server error', error: 'Internal Server Error' },
    })
    expect(held.logged).toEqual([['transport failure', expect.any(TypeError)]])
  })

  it('survives a dispatch that fails with no error value once its client has gone (nothing to answer, nothing thrown)', async () => {
    let fail!: (reason?: unknown) => void
    let called!: () => void
    const arrived = new Promise<void>((resolve) => (called = resolve))
    const target: DispatchTarget = {
      chain: null,
      log: () => {},
      dispatch: () =>
        new Promise<NeutralResponse>((_resolve, reject) => {
          fail = reject
          called()
        }),
    }
    const { port, requests } = await listen(target)
    const socket = connect(port, '127.0.0.1', () => socket.write('GET /v1/thing HTTP/1.1\r\nHost: x\r\n\r\n'))
    socket.on('error', () => {})
    await arrived
    socket.destroy()
    await new Promise((resolve) => requests[0]!.once('close', resolve))
    const unhandled: unknown[] = []
    const onUnhandled = (reason: unknown) => unhandled.push(reason)
    process.on('unhandledRejection', onUnhandled)
    try {
      fail(undefined)
      await turn()
      await turn()
      expect(unhandled).toEqual([])
    } finally {
      process.off('unhandledRejection', onUnhandled)
    }
  })
})
