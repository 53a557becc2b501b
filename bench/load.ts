import { Agent, request } from 'node:http'

/** Options of one load run. */
export interface LoadOptions {
  url: string
  method: 'GET' | 'POST'
  body?: string
  headers?: Record<string, string>
  /** requests in flight at once */
  concurrency: number
  durationMs: number
}

/** Sends requests back to back on keep-alive sockets for `durationMs`; returns completed requests per second. */
export async function load(
  options: LoadOptions,
): Promise<{ rps: number; errors: number; completed: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency })
  const url = new URL(options.url)
  const deadline = Date.now() + options.durationMs
  let completed = 0
  let errors = 0
  const one = () =>
    new Promise<void>((resolve) => {
      const req = request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          path: url.pathname + url.search,
          method: options.method,
          headers: options.headers,
        },
        (res) => {
          res.resume()
          res.on('end', () => {
            if (res.statusCode && res.statusCode < 400) completed++
            else errors++
            resolve()
          })
        },
      )
      req.on('error', () => {
        errors++
        resolve()
      })
      req.end(options.body)
    })
  const started = Date.now()
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (Date.now() < deadline) await one()
    }),
  )
  agent.destroy()
  return { rps: completed / ((Date.now() - started) / 1000), errors, completed }
}
