import { createRequire } from 'node:module'
import type { Express } from 'express'
import type { DispatchTarget } from '../contract/neutral.ts'
import { createRequestListener } from './node-http.ts'

/**
 * An Express app serving the sandbox's whole route table, for apps that mount the sandbox in their own Express
 * server (`app.use('/rn', createApp(sandbox))`). It runs the same request listener `startServer` uses directly:
 * Express re-prototypes every request and response, which halves throughput, so the server skips it. Express is
 * loaded on the first call (it is CommonJS, so synchronously): importing the package does not pay for it.
 */
export function createApp(sandbox: DispatchTarget): Express {
  const express = createRequire(import.meta.url)('express') as typeof import('express')
  const app = express()
  app.disable('x-powered-by')
  app.disable('etag')
  app.use(createRequestListener(sandbox))
  return app
}
