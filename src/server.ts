import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createSandbox, type Sandbox, type SandboxOptions } from './sandbox.ts'
import { createApp } from './transports/express.ts'
import { createRequestListener } from './transports/node-http.ts'

/** Options of startServer: the sandbox's options plus where to listen. */
export interface StartServerOptions extends SandboxOptions {
  /** 0 (default) lets the OS pick a free port */
  port?: number
  host?: string
  /** serve through the Express app instead of the bare request listener (same routes, slower; for tests of createApp) */
  express?: boolean
}

/** A running sandbox server. */
export interface RunningServer {
  url: string
  port: number
  sandbox: Sandbox
  server: Server
  /** stops listening, then stops the chain */
  close(): Promise<void>
}

/** Creates a sandbox and serves it over HTTP (what `npm start` and the e2e tests run). */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const sandbox = await createSandbox(options)
  const server = createServer(options.express ? createApp(sandbox) : createRequestListener(sandbox))
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve())
    })
  } catch (error) {
    await sandbox.close()
    throw error
  }
  const { port } = server.address() as AddressInfo
  const host =
    options.host === undefined || options.host === '0.0.0.0' || options.host === '::'
      ? '127.0.0.1'
      : options.host
  return {
    url: `http://${host}:${port}`,
    port,
    sandbox,
    server,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
      await sandbox.close()
    },
  }
}
