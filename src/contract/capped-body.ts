// A request body read whole up to the API's body bound (MAX_BODY_BYTES), for the routes served beside the dispatcher
// (POST /__sandbox/sandboxes, /mcp), which read their own body. Past the bound (as declared, or as sent) the rest is
// read and dropped: the answer goes out on a connection still in order.
import type { IncomingMessage } from 'node:http'
import { MAX_BODY_BYTES } from './neutral.ts'

/** The body as text; `over`: past MAX_BODY_BYTES; `cut`: the client went away before its whole body arrived. */
export type CappedBody = { text: string } | { over: true } | { cut: true }

/** Reads `req`'s body (resolves once, never rejects). */
export function readCappedBody(req: IncomingMessage): Promise<CappedBody> {
  const declared = Number(req.headers['content-length'])
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) {
    req.resume()
    return Promise.resolve({ over: true })
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    let settled = false
    const settle = (body: CappedBody) => {
      if (settled) return
      settled = true
      resolve(body)
    }
    req.on('data', (chunk: Buffer) => {
      if (settled) return
      size += chunk.length
      if (size <= MAX_BODY_BYTES) return void chunks.push(chunk)
      chunks.length = 0
      settle({ over: true })
    })
    req.on('end', () => settle({ text: Buffer.concat(chunks).toString('utf8') }))
    req.on('error', () => settle({ cut: true }))
    // gone before its whole body arrived (or before this read began): no 'end' comes
    const gone = () => {
      if (!req.complete) settle({ cut: true })
    }
    req.on('close', gone)
    if (req.destroyed) gone()
  })
}
