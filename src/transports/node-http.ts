import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import { isPromise, type MaybePromise } from '../contract/maybe-promise.ts'
import type { DispatchTarget } from '../contract/neutral.ts'
import { MAX_BODY_BYTES, type NeutralRequest, type NeutralResponse } from '../contract/neutral.ts'
import { serializeResponse } from './neutral-response.ts'

/**
 * Reads the body as text, stopping one byte past the limit so the core answers 413 without buffering more, then
 * calls `done` (no promise: the answer is written from the body's last event); `failed` when the client went away
 * before its whole body arrived.
 */
function readBody(
  req: IncomingMessage,
  done: (text: string | undefined, truncated: boolean) => void,
  failed: (error: Error) => void,
): void {
  // joined once at the end (a single chunk, the usual case, is read as it is): decoding chunk by chunk instead
  // kept large bodies as string pieces in V8's heap, and the soak's memory swung more (6.5-7.2 % -> 8.6-12.5 %)
  const chunks: Buffer[] = []
  const text = () => (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString('utf8')
  let size = 0
  let settled = false
  req.on('data', (chunk: Buffer) => {
    if (settled) return
    size += chunk.length
    chunks.push(chunk)
    if (size > MAX_BODY_BYTES) {
      settled = true
      req.pause()
      done(text(), true)
    }
  })
  req.on('end', () => {
    if (settled) return
    settled = true
    done(size === 0 ? undefined : text(), false)
  })
  req.on('error', (error) => {
    if (settled) return
    settled = true
    failed(error)
  })
  // a client gone before its whole body arrived: no 'end' comes, and the call must not wait forever (a body that
  // did arrive whole is still read to its 'end')
  const gone = () => {
    if (settled || req.complete) return
    settled = true
    failed(Object.assign(new Error('the client went away'), { code: 'ECONNRESET' }))
  }
  req.on('close', gone)
  if (req.destroyed) gone()
}

/** scheme and authority of a request target in absolute form */
const ABSOLUTE_FORM = /^https?:\/\/[^/?#]*/i

/** The neutral request of a Node request; `req.url` is relative to where the listener is mounted. */
function toNeutral(req: IncomingMessage, rawBody: string | undefined): NeutralRequest {
  let raw = req.url ?? '/'
  // a target in absolute form (`GET http://host/v2/request`, as a client sends through a proxy) is served by its
  // path: RFC 9112 §3.2.2 has servers accept it
  if (raw.charCodeAt(0) !== 47 && ABSOLUTE_FORM.test(raw)) {
    const rest = raw.replace(ABSOLUTE_FORM, '')
    raw = rest.startsWith('/') ? rest : `/${rest}`
  }
  const mark = raw.indexOf('?')
  const query: Record<string, string> = {}
  if (mark >= 0) {
    for (const [key, value] of new URLSearchParams(raw.slice(mark + 1)))
      if (!Object.hasOwn(query, key)) query[key] = value
  }
  // Node's own object: node:http gives every header as one string (a repeat joined, or dropped for the headers that
  // may come once, such as host and authorization), all but set-cookie, which comes as a list (a copy then, joined)
  const incoming = req.headers
  let headers = incoming as Record<string, string>
  if (incoming['set-cookie'] !== undefined) {
    headers = {}
    for (const name in incoming) {
      const value = incoming[name]
      if (value !== undefined) headers[name] = typeof value === 'string' ? value : value.join(', ')
    }
  }
  const neutral: NeutralRequest = {
    method: req.method ?? 'GET',
    path: mark >= 0 ? raw.slice(0, mark) : raw,
    query,
    headers,
    rawBody,
  }
  const address = req.socket.remoteAddress
  if (address) neutral.remoteAddress = address
  return neutral
}

/**
 * A Node request listener serving the sandbox's whole route table (API, control API, /rpc) through its
 * dispatcher: what `startServer` listens with, and what the Express app mounts.
 */
export function createRequestListener(sandbox: DispatchTarget): RequestListener {
  const answers = createAnswerBatch(sandbox)
  return (req: IncomingMessage, res: ServerResponse) => {
    handle(sandbox, answers, req, res)
  }
}

/** An answer ready to be written: what `write` needs. */
interface ReadyAnswer {
  req: IncomingMessage
  res: ServerResponse
  status: number
  headers: Record<string, string | number>
  out: string | Uint8Array | null
  truncated: boolean
}

/** Queues an answer for the batch's write. */
type AnswerBatch = (answer: ReadyAnswer) => void

/**
 * Answers are written together once the event loop's I/O phase has run every callback it had (`setImmediate`),
 * not each as soon as it is ready. A write to a keep-alive client that went back to waiting costs the kernel a
 * wake-up of that client, and on a virtual machine that wake-up is most of the write's cost (it made a 122-byte
 * answer's `writev` cost 20-40 µs); writes in a row find the clients woken by the first of them still running.
 * The delay is the rest of one loop turn. An answer that cannot be written (node:http refuses a header) gets the 500
 * of a failed call, and the others of its batch are still written.
 * Record: docs/decisions/2026-12-06-answers-written-in-batches.md.
 */
function createAnswerBatch(sandbox: DispatchTarget): AnswerBatch {
  let queue: ReadyAnswer[] = []
  const flush = () => {
    const ready = queue
    queue = []
    for (const answer of ready) {
      try {
        write(answer)
      } catch (error) {
        failed(sandbox, answer.req, answer.res, error)
      }
    }
  }
  return (answer) => {
    if (queue.push(answer) === 1) setImmediate(flush)
  }
}

function write({ req, res, status, headers, out, truncated }: ReadyAnswer): void {
  // the client left while the answer waited: nothing to write
  if (res.destroyed) return
  res.writeHead(status, headers)
  res.end(out ?? undefined)
  if (truncated) req.destroy()
}

/** Writes a never-ending response (server-sent events) as its chunks come, until the client goes away. */
function sendStream(req: IncomingMessage, res: ServerResponse, response: NeutralResponse): void {
  res.writeHead(response.status, {
    ...response.headers,
    'content-type': response.contentType ?? 'text/event-stream; charset=utf-8',
  })
  res.flushHeaders()
  let open = true
  let close: (() => void) | undefined
  const stop = () => {
    if (!open) return
    open = false
    close?.()
  }
  // the sandbox ends it (its key expired): the body ends, the source stops
  const end = () => {
    if (!res.writableEnded && !res.destroyed) res.end()
    stop()
  }
  close = response.stream!.open((chunk) => {
    if (open && !res.writableEnded && !res.destroyed) res.write(chunk)
  }, end)
  // ended while it opened
  if (!open) close()
  req.socket.setKeepAlive(true)
  res.on('close', stop)
  // a client gone while its call was answered: its 'close' came before the stream opened
  if (res.destroyed || req.socket.destroyed) stop()
}

function handle(
  sandbox: DispatchTarget,
  answers: AnswerBatch,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  // no Content-Length and no Transfer-Encoding: the request has no body (RFC 9112 §6.3)
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
    respond(sandbox, answers, req, res, undefined, false)
    return
  }
  readBody(
    req,
    (text, truncated) => respond(sandbox, answers, req, res, text, truncated),
    (error) => failed(sandbox, req, res, error),
  )
}

function respond(
  sandbox: DispatchTarget,
  answers: AnswerBatch,
  req: IncomingMessage,
  res: ServerResponse,
  text: string | undefined,
  truncated: boolean,
): void {
  let response: MaybePromise<NeutralResponse>
  try {
    const request = toNeutral(req, text)
    const { now } = sandbox.dispatch
    response = now ? now(request) : sandbox.dispatch(request)
  } catch (error) {
    failed(sandbox, req, res, error)
    return
  }
  // a call that waited for nothing is queued now, with no promise in between
  if (!isPromise(response)) {
    answer(sandbox, answers, req, res, response, truncated)
    return
  }
  response.then(
    (ready) => answer(sandbox, answers, req, res, ready, truncated),
    (error) => failed(sandbox, req, res, error),
  )
}

/** A dispatched answer queued for the batch's write (a stream is written as it comes). */
function answer(
  sandbox: DispatchTarget,
  answers: AnswerBatch,
  req: IncomingMessage,
  res: ServerResponse,
  response: NeutralResponse,
  truncated: boolean,
): void {
  try {
    if (response.stream) {
      sendStream(req, res, response)
      return
    }
    const serialized = serializeResponse(response)
    const { contentType } = serialized
    // an answer kept with its UTF-8 bytes is sent as they are: no encoding, no length to count
    const out = response.utf8 && serialized.text === response.text ? response.utf8 : serialized.text
    // the dispatcher's answers carry a headers object of their own (a copy of the route's): added to, not copied
    const headers: Record<string, string | number> = response.headers
    if (contentType) headers['content-type'] = contentType
    if (out !== null)
      headers['content-length'] = typeof out === 'string' ? Buffer.byteLength(out) : out.byteLength
    if (truncated) headers.connection = 'close'
    answers({ req, res, status: response.status, headers, out, truncated })
  } catch (error) {
    failed(sandbox, req, res, error)
  }
}

/** A call that could not be answered: nobody to answer when the client left, else a 500 in the service's shape. */
function failed(sandbox: DispatchTarget, req: IncomingMessage, res: ServerResponse, error: unknown): void {
  // the client went away (or was closed for being too slow) before its body arrived: nobody to answer
  if (req.destroyed && (error as NodeJS.ErrnoException | undefined)?.code === 'ECONNRESET') return
  sandbox.log('transport failure', error)
  if (!res.headersSent) {
    res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' })
    res.end(
      JSON.stringify({ statusCode: 500, message: 'Internal server error', error: 'Internal Server Error' }),
    )
  }
}
