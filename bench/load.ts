import { connect, type Socket } from 'node:net'

/** Options of one load run. */
export interface LoadOptions {
  url: string
  method: 'GET' | 'POST'
  body?: string
  headers?: Record<string, string>
  /** requests in flight at once (one keep-alive connection each) */
  concurrency: number
  durationMs: number
  /** stop after this many requests sent in all (the run still ends at `durationMs`) */
  requests?: number
}

/**
 * Sends requests back to back on keep-alive connections for `durationMs`; returns completed requests per second.
 *
 * The client must cost far less than the servers it measures: on 2 cores it shares the machine with them, and the
 * bare server answers in about 20 µs of CPU. node:http's client took about as much per request (21-23 µs), so the
 * bare baseline was held back by its client and every ratio looked better than it was. This one writes the same
 * request bytes (built once) on raw sockets and reads each answer only as far as its status, its length
 * (Content-Length, the chunks of a chunked body, none for 204 and 304, or the close) and the next answer: about 12 µs
 * per request. 2xx and 3xx answers are completed requests, the others errors, and so is a connection that closes or
 * stalls (STALL_MS) with a request unanswered; one that closes after an answer saying `connection: close` is not. Each connection sends
 * its next request once its answer is complete (no pipelining), as an HTTP/1.1 keep-alive client does.
 */
export async function load(
  options: LoadOptions,
): Promise<{ rps: number; errors: number; completed: number }> {
  const url = new URL(options.url)
  const body = options.body === undefined ? undefined : Buffer.from(options.body)
  const head = [
    `${options.method} ${url.pathname}${url.search} HTTP/1.1`,
    `host: ${url.host}`,
    ...Object.entries(options.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
    ...(body ? [`content-length: ${body.length}`] : []),
    '',
    '',
  ].join('\r\n')
  const request = body ? Buffer.concat([Buffer.from(head, 'latin1'), body]) : Buffer.from(head, 'latin1')
  const deadline = Date.now() + options.durationMs
  let completed = 0
  let errors = 0
  let sent = 0
  const limit = options.requests ?? Number.POSITIVE_INFINITY

  const connection = (): Promise<void> =>
    new Promise((resolve) => {
      const socket: Socket = connect(Number(url.port), url.hostname)
      socket.setNoDelay(true)
      // an answer that never comes (a server stuck, a body this parser cannot frame) ends the connection as an error
      // instead of holding the run past its deadline
      socket.setTimeout(STALL_MS, () => socket.destroy())
      let pending: Buffer | null = null
      let done = false
      // the last answer said `connection: close`: the server ends this connection, no error
      let closedByAnswer = false
      // an answer framed by the end of the connection (no length, not chunked) is counted when it closes
      let untilClose: number | null = null
      const finish = () => {
        if (done) return
        done = true
        socket.destroy()
        resolve()
      }
      const send = () => {
        if (Date.now() >= deadline || sent >= limit) finish()
        else {
          sent++
          socket.write(request)
        }
      }
      const count = (status: number) => {
        if (status >= 200 && status < 400) completed++
        else errors++
      }
      socket.on('connect', send)
      socket.on('error', () => {})
      // a server that closes a connection mid-run (or an error): counted unless its last answer announced it, and the
      // run goes on with a new one, so as many connections stay in flight
      socket.on('close', () => {
        if (done) return
        done = true
        if (untilClose !== null) count(untilClose)
        else if (!closedByAnswer) errors++
        if (Date.now() < deadline && sent < limit) connection().then(resolve)
        else resolve()
      })
      socket.on('data', (chunk: Buffer) => {
        if (closedByAnswer || untilClose !== null) return
        let data: Buffer = pending ? Buffer.concat([pending, chunk]) : chunk
        for (;;) {
          const headEnd = data.indexOf('\r\n\r\n')
          if (headEnd < 0) break
          const header = data.toString('latin1', 0, headEnd)
          const status = Number(header.slice(9, 12))
          const end = answerEnd(data, headEnd, header, status)
          if (end === UNTIL_CLOSE) {
            untilClose = status
            data = Buffer.alloc(0)
            break
          }
          if (end < 0 || data.length < end) break
          data = data.subarray(end)
          // an interim answer (100 Continue): the final one follows
          if (status < 200) continue
          count(status)
          if (/\r\nconnection: *close/i.test(header)) {
            closedByAnswer = true
            socket.end()
            break
          }
          send()
        }
        pending = data.length > 0 ? data : null
      })
    })

  const started = Date.now()
  await Promise.all(Array.from({ length: options.concurrency }, connection))
  return { rps: completed / ((Date.now() - started) / 1000), errors, completed }
}

/** How long a connection waits for the rest of an answer before it is counted as an error. */
const STALL_MS = 10_000
/** `answerEnd` for an answer whose body runs to the end of the connection. */
const UNTIL_CLOSE = -2

/**
 * Where the answer at the start of `data` ends (RFC 9112 §6.3), -1 while it has not all arrived: no body for 1xx,
 * 204 and 304; a chunked body up to its last chunk and trailers; else Content-Length; else up to the close.
 */
function answerEnd(data: Buffer, headEnd: number, header: string, status: number): number {
  const bodyStart = headEnd + 4
  if (status < 200 || status === 204 || status === 304) return bodyStart
  if (/\r\ntransfer-encoding:[^\r]*chunked/i.test(header)) {
    let at = bodyStart
    for (;;) {
      const lineEnd = data.indexOf('\r\n', at)
      if (lineEnd < 0) return -1
      // the size in hex, before any `;extension`
      const size = Number.parseInt(data.toString('latin1', at, lineEnd), 16)
      if (Number.isNaN(size)) return UNTIL_CLOSE
      if (size === 0) {
        // trailer lines, then an empty line (right away when there are none)
        const last = data.indexOf('\r\n\r\n', lineEnd)
        return last < 0 ? -1 : last + 4
      }
      at = lineEnd + 2 + size + 2
      if (at > data.length) return -1
    }
  }
  const length = /\r\ncontent-length: *(\d+)/i.exec(header)
  return length ? bodyStart + Number(length[1]) : UNTIL_CLOSE
}
