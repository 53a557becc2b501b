// The same API client over the two transports: a real HTTP server (Express) and in-process MSW handlers.
import { randomBytes } from 'node:crypto'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe } from 'vitest'
import type { Sandbox } from '../../src/sandbox.ts'
import { type RunningServer, type StartServerOptions, startServer } from '../../src/server.ts'
import { createApp } from '../../src/transports/express.ts'
import { createHandlers } from '../../src/transports/msw.ts'
import type { Loose } from './loose.ts'

/** A response as the tests read it. */
export interface ApiResponse<T = Loose> {
  status: number
  body: T
  headers: Headers
  text: string
}

/** Options of one call. */
export interface CallOptions {
  apiKey?: string | null
  headers?: Record<string, string>
  body?: unknown
  rawBody?: string
  query?: Record<string, string | undefined>
}

/** A client of one transport. */
export interface ApiClient {
  transport: 'http' | 'msw' | 'express'
  baseUrl: string
  call<T = Loose>(method: string, path: string, options?: CallOptions): Promise<ApiResponse<T>>
}

/** A fresh API key per test keeps tests isolated without any reset. */
export function newApiKey(): string {
  return `rn_test_${randomBytes(8).toString('hex')}`
}

function makeClient(transport: ApiClient['transport'], baseUrl: string, defaultKey: () => string): ApiClient {
  return {
    transport,
    baseUrl,
    async call(method, path, options = {}) {
      const url = new URL(baseUrl + path)
      for (const [k, v] of Object.entries(options.query ?? {}))
        if (v !== undefined) url.searchParams.set(k, v)
      const headers: Record<string, string> = { ...options.headers }
      const apiKey = options.apiKey === undefined ? defaultKey() : options.apiKey
      if (apiKey !== null) headers['x-api-key'] = apiKey
      let body: string | undefined
      if (options.rawBody !== undefined) body = options.rawBody
      else if (options.body !== undefined) {
        body = JSON.stringify(options.body)
        headers['content-type'] ??= 'application/json'
      }
      const res = await fetch(url, { method, headers, ...(body !== undefined ? { body } : {}) })
      const text = await res.text()
      let parsed: unknown = text
      try {
        parsed = text ? JSON.parse(text) : undefined
      } catch {}
      return { status: res.status, body: parsed as Loose, headers: res.headers, text }
    },
  }
}

/** Both transports over one sandbox: an HTTP server on an OS-assigned port, and MSW handlers on a fake base URL. */
export interface Transports {
  sandbox: Sandbox
  server: RunningServer
  /** the node listener (http) and MSW; every behaviour test runs through both */
  clients: ApiClient[]
  /** the Express app (createApp) mounted under /rn of a host Express app, for the parity test */
  express: ApiClient
  close(): Promise<void>
}

/** Starts one sandbox (its chains from `options.networks`, none if `options.chain` is false) and exposes it through both transports. */
export async function startTransports(
  defaultKey: () => string = newApiKey,
  options: StartServerOptions = {},
): Promise<Transports> {
  const server = await startServer(options)
  const mswBase = 'https://api.request.network'
  const msw = setupServer(...createHandlers(server.sandbox, { baseUrl: mswBase }))
  msw.listen({ onUnhandledRequest: 'bypass' })
  // the Express app over the same sandbox, mounted under a prefix as an app embedding it would
  const host = express()
  host.use('/rn', createApp(server.sandbox))
  const expressServer = await new Promise<Server>((resolve) => {
    const s = host.listen(0, '127.0.0.1', () => resolve(s))
  })
  const expressBase = `http://127.0.0.1:${(expressServer.address() as AddressInfo).port}/rn`
  return {
    sandbox: server.sandbox,
    server,
    clients: [makeClient('http', server.url, defaultKey), makeClient('msw', mswBase, defaultKey)],
    express: makeClient('express', expressBase, defaultKey),
    async close() {
      msw.close()
      await new Promise<void>((resolve) => {
        expressServer.close(() => resolve())
        expressServer.closeAllConnections()
      })
      await server.close()
    },
  }
}

/**
 * The test file's sandbox, the one way in for behaviour tests: started before the file's first test, closed after
 * its last. Its fields read the running sandbox (`t.sandbox`, `t.clients`, …), so `() => t` is what
 * `describeTransports` takes.
 */
export function useTransports(
  defaultKey: () => string = newApiKey,
  options: StartServerOptions = {},
): Transports {
  let running: Transports | undefined
  beforeAll(async () => {
    running = await startTransports(defaultKey, options)
  })
  afterAll(async () => running?.close())
  const started = (): Transports => {
    if (!running) throw new Error('the sandbox starts in beforeAll: read it inside a hook or a test')
    return running
  }
  return {
    get sandbox() {
      return started().sandbox
    },
    get server() {
      return started().server
    },
    get clients() {
      return started().clients
    },
    get express() {
      return started().express
    },
    close: () => started().close(),
  }
}

/** The transports every behaviour test runs through. */
export const TRANSPORTS = ['http', 'msw'] as const
export type TransportName = (typeof TRANSPORTS)[number]

/** Creates a request through `client` (POST /v2/request) and answers its ids; throws (with the answer) unless 201. */
export async function createRequestWith(
  client: ApiClient,
  apiKey: string,
  body: Record<string, unknown>,
): Promise<{ requestId: string; paymentReference: string }> {
  const res = await client.call('POST', '/v2/request', { apiKey, body })
  if (res.status !== 201) throw new Error(`POST /v2/request answered ${res.status}: ${res.text}`)
  return res.body
}

/** `client().call` taking the API key and the JSON body (none when undefined) as arguments. */
export function keyedCall(client: () => ApiClient) {
  return (method: string, path: string, apiKey: string, body?: unknown) =>
    client().call(method, path, { apiKey, ...(body === undefined ? {} : { body }) })
}

/** The client of one transport of a running `Transports`. */
export function clientOf(transports: Transports, transport: ApiClient['transport']): ApiClient {
  if (transport === 'express') return transports.express
  const client = transports.clients.find((c) => c.transport === transport)
  if (!client) throw new Error(`no ${transport} client`)
  return client
}

/**
 * One describe block per transport (http, msw), titled like `describe.each` (`%s` is the transport). `body` gets
 * the transport's client (a getter: the sandbox usually starts in beforeAll) and, when `params` are given, the
 * transport's own parameter (e.g. the default account it pays from, so the two blocks never share a nonce).
 */
export function describeTransports(
  title: string,
  transports: () => Transports,
  body: (client: () => ApiClient, transport: TransportName) => void,
): void
export function describeTransports<P>(
  title: string,
  transports: () => Transports,
  params: Record<TransportName, P>,
  body: (client: () => ApiClient, param: P, transport: TransportName) => void,
): void
export function describeTransports<P>(
  title: string,
  transports: () => Transports,
  paramsOrBody: Record<TransportName, P> | ((client: () => ApiClient, transport: TransportName) => void),
  maybeBody?: (client: () => ApiClient, param: P, transport: TransportName) => void,
): void {
  for (const transport of TRANSPORTS) {
    const client = () => clientOf(transports(), transport)
    describe(title.replace('%s', transport), () => {
      if (typeof paramsOrBody === 'function') paramsOrBody(client, transport)
      else maybeBody!(client, paramsOrBody[transport], transport)
    })
  }
}
