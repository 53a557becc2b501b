import express, { type Express, type Request } from 'express'
import { MAX_BODY_BYTES, type NeutralRequest } from '../contract/neutral.ts'
import type { Sandbox } from '../sandbox.ts'
import { serializeResponse } from './neutral-response.ts'

/** Reads the body as text, stopping one byte past the limit so the core answers 413 without buffering more. */
function readBody(req: Request): Promise<{ text: string | undefined; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let truncated = false
    req.on('data', (chunk: Buffer) => {
      if (truncated) return
      size += chunk.length
      chunks.push(chunk)
      if (size > MAX_BODY_BYTES) {
        truncated = true
        req.pause()
        resolve({ text: Buffer.concat(chunks).toString('utf8'), truncated })
      }
    })
    req.on('end', () => {
      if (!truncated)
        resolve({ text: size === 0 ? undefined : Buffer.concat(chunks).toString('utf8'), truncated })
    })
    req.on('error', reject)
  })
}

function toNeutral(req: Request, rawBody: string | undefined): NeutralRequest {
  const url = new URL(req.originalUrl, 'http://sandbox.local')
  const query: Record<string, string> = {}
  for (const [key, value] of url.searchParams) if (!(key in query)) query[key] = value
  const headers: Record<string, string> = {}
  for (const [key, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[key.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value
  }
  return { method: req.method, path: url.pathname, query, headers, rawBody }
}

/** An Express app serving the sandbox's whole route table (API, control API, /rpc) through its dispatcher. */
export function createApp(sandbox: Sandbox): Express {
  const app = express()
  app.disable('x-powered-by')
  app.disable('etag')
  app.use(async (req, res) => {
    try {
      const { text, truncated } = await readBody(req)
      const response = await sandbox.dispatch(toNeutral(req, text))
      const { text: out, contentType } = serializeResponse(response)
      const headers: Record<string, string | number> = { ...response.headers }
      if (contentType) headers['content-type'] = contentType
      if (out !== null) headers['content-length'] = Buffer.byteLength(out)
      if (truncated) headers.connection = 'close'
      res.writeHead(response.status, headers)
      res.end(out ?? undefined)
      if (truncated) req.destroy()
    } catch (error) {
      sandbox.shared.log('transport failure', error)
      if (!res.headersSent)
        res
          .status(500)
          .json({ statusCode: 500, message: 'Internal server error', error: 'Internal Server Error' })
    }
  })
  return app
}
