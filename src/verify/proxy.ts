// A recording proxy: a local port an app points at instead of the service. It forwards every call to the target,
// answers with the target's answer, and keeps the exchange (credentials masked) in a HAR file, rewritten after each
// call so that a kill loses at most the call in flight. Bounds: request bodies, answer bytes kept, entries and bytes
// kept (an answer is forwarded whole).
import { renameSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ReadableStream as NodeReadableStream } from 'node:stream/web'
import { type HarEntry, MAX_RECORDED_ENTRIES, maskExchange, toEntry, toHar } from './har.ts'
import { MAX_BODY_BYTES } from './targets.ts'

/** The largest request body the proxy forwards (413 past it). */
export const MAX_PROXY_REQUEST_BYTES = 1024 * 1024
/** The most bytes of bodies one recording keeps; past it calls are still forwarded, no longer recorded. */
export const MAX_RECORDING_BYTES = 64 * 1024 * 1024

/** Headers not forwarded either way: hop-by-hop, or describing a body the proxy re-encodes. */
const HOP = new Set([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'content-encoding',
  'accept-encoding',
  'upgrade',
  'proxy-connection',
  'te',
  'trailer',
])
/** Headers whose values are secrets: masked in the recording, and masked wherever else they appear. */
const SECRET_HEADERS = ['x-api-key', 'x-orchestrator-key', 'authorization', 'proxy-authorization']

export interface ProxyOptions {
  target: string
  /** the HAR file the session is written to */
  record: string
  port?: number
  host?: string
  /** told of each call (method, path, status) */
  onCall?: (line: string) => void
}

export interface RunningProxy {
  url: string
  /** the exchanges recorded so far */
  recorded(): number
  close(): Promise<void>
}

class TooLarge extends Error {}

async function readBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request) {
    size += (chunk as Buffer).length
    if (size > limit) throw new TooLarge()
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}

/** An answer in the service's error shape, from the proxy itself. */
function refuse(response: ServerResponse, status: number, message: string): void {
  const error = status === 413 ? 'Payload Too Large' : 'Bad Gateway'
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' })
  response.end(JSON.stringify({ statusCode: status, message, error }))
}

/**
 * Sends the answer's body on to the app whole, and keeps its first `limit` bytes for the recording (the app gets what
 * the service sent; only what is kept is bounded, and the recording keeps less of it: har.ts's MAX_RECORDED_BODY).
 */
async function relay(answer: Response, response: ServerResponse, limit: number): Promise<Uint8Array> {
  const kept: Uint8Array[] = []
  let size = 0
  if (!answer.body) {
    response.end()
    return new Uint8Array()
  }
  const keep = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (size < limit) {
        const part = chunk.subarray(0, limit - size)
        kept.push(part)
        size += part.length
      }
      done(null, chunk)
    },
  })
  try {
    await pipeline(Readable.fromWeb(answer.body as NodeReadableStream<Uint8Array>), keep, response)
  } catch {
    // the app or the service went away mid-answer: what was forwarded is still recorded
    response.destroy()
  }
  return Buffer.concat(kept)
}

/** Starts the proxy on `host` (default 127.0.0.1: a local tool) and `port` (default 0: a free one). */
export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const target = options.target.replace(/\/+$/, '')
  const entries: HarEntry[] = []
  const secrets = new Set<string>()
  let bytes = 0
  let full = false

  const save = () => {
    const har = toHar(
      entries,
      { side: 'proxy', base: target },
      `request-sandbox proxy to ${target}${full ? ' (the recording reached its bound: later calls were forwarded, not recorded)' : ''}`,
    )
    const temporary = `${options.record}.${process.pid}.tmp`
    writeFileSync(temporary, `${JSON.stringify(har, null, 1)}\n`)
    renameSync(temporary, options.record)
  }
  save()

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    let body: Buffer
    try {
      body = await readBody(request, MAX_PROXY_REQUEST_BYTES)
    } catch (error) {
      if (!(error instanceof TooLarge)) throw error
      refuse(response, 413, `The proxy forwards request bodies of at most ${MAX_PROXY_REQUEST_BYTES} bytes`)
      request.resume()
      return
    }
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(request.headers)) {
      if (HOP.has(name) || value === undefined) continue
      headers[name] = Array.isArray(value) ? value.join(', ') : value
    }
    for (const name of SECRET_HEADERS) {
      const value = headers[name]
      if (value) {
        secrets.add(value)
        const bearer = /^\S+\s+(\S{4,})$/.exec(value)
        if (bearer) secrets.add(bearer[1]!)
      }
    }
    const path = request.url ?? '/'
    const started = Date.now()
    let answer: Response
    try {
      answer = await fetch(target + path, {
        method: request.method ?? 'GET',
        headers: { ...headers, 'accept-encoding': 'identity' },
        ...(body.length && request.method !== 'GET' && request.method !== 'HEAD'
          ? { body: new Uint8Array(body) }
          : {}),
        redirect: 'manual',
        signal: AbortSignal.timeout(60_000),
      })
    } catch (error) {
      const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message
      refuse(response, 502, `The proxy could not reach ${target}: ${cause}`)
      return
    }
    const answerHeaders: Record<string, string> = {}
    answer.headers.forEach((value, name) => {
      if (!HOP.has(name)) answerHeaders[name] = value
    })
    // each cookie the service sets is its own set-cookie header (they cannot be joined into one)
    const cookies = answer.headers.getSetCookie()
    response.writeHead(answer.status, {
      ...answerHeaders,
      ...(cookies.length ? { 'set-cookie': cookies } : {}),
    })
    const answerBody = await relay(answer, response, MAX_BODY_BYTES)
    options.onCall?.(`${request.method} ${path} ${answer.status}`)

    const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)
    const exchange = maskExchange(
      {
        request: {
          method: request.method ?? 'GET',
          url: path,
          headers,
          ...(body.length ? { body: text(body) } : {}),
        },
        response: { status: answer.status, headers: answerHeaders, body: text(answerBody) },
      },
      [...secrets],
    )
    const size = (exchange.request.body?.length ?? 0) + exchange.response.body.length
    if (full || entries.length >= MAX_RECORDED_ENTRIES || bytes + size > MAX_RECORDING_BYTES) {
      if (!full) {
        full = true
        save()
      }
      return
    }
    bytes += size
    entries.push(
      toEntry(target, {
        ...exchange,
        startedDateTime: new Date(started).toISOString(),
        time: Date.now() - started,
      }),
    )
    save()
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) refuse(response, 502, `The proxy failed: ${(error as Error).message}`)
      else response.destroy()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve())
  })
  const address = server.address() as AddressInfo
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
  return {
    url: `http://${host}:${address.port}`,
    recorded: () => entries.length,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
