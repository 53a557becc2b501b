// `request-sandbox/msw/browser`: MSW handlers for a browser (setupWorker), where no anvil can be spawned and
// no Node built-ins exist. They forward the app's API calls to a running sandbox server by URL (whose chain the
// app's wallet also talks to, at <sandboxUrl>/rpc), adding the test's own key and scenario headers.
// Only msw and fetch are used here (and in ../harness/remote.ts), so bundlers can ship this file to a browser.
// The tenant (`remoteTenant`) has the same interface as the in-process harness's (`HarnessTenant`).
import { bypass, HttpResponse, http, type RequestHandler } from 'msw'

export { type WaitOptions, waitFor } from './contract/wait.ts'
export { journalQuery, type RemoteTenant, remoteTenant } from './harness/remote.ts'
export type {
  EventType,
  FaucetResult,
  HarnessChain,
  HarnessChainInfo,
  HarnessDelivery,
  HarnessTenant,
  HarnessWebhook,
  JournalEntry,
  JournalFilter,
  SandboxEvent,
  ScenarioState,
} from './harness/types.ts'

/** Options of createRemoteHandlers. */
export interface RemoteHandlersOptions {
  /** the running sandbox, e.g. http://127.0.0.1:8080 */
  sandboxUrl: string
  /** where the app sends its API calls (default https://api.request.network) */
  baseUrl?: string
  /** headers added to every forwarded call, read per call (e.g. the current test's x-api-key, x-sandbox-scenario) */
  headers?: () => Record<string, string>
}

/** Handlers that answer the app's calls under `baseUrl` from a running sandbox server. */
export function createRemoteHandlers(options: RemoteHandlersOptions): RequestHandler[] {
  const base = new URL(options.baseUrl ?? 'https://api.request.network')
  const prefix = base.pathname.replace(/\/+$/, '')
  const target = options.sandboxUrl.replace(/\/+$/, '')
  return [
    http.all(`${base.origin}${prefix}/*`, async ({ request }) => {
      const url = new URL(request.url)
      const path = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : url.pathname
      const headers = new Headers(request.headers)
      for (const [key, value] of Object.entries(options.headers?.() ?? {})) headers.set(key, value)
      const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.text()
      const forwarded = new Request(`${target}${path}${url.search}`, {
        method: request.method,
        headers,
        ...(body ? { body } : {}),
      })
      const response = await fetch(bypass(forwarded))
      const out = new Headers(response.headers)
      out.delete('content-encoding')
      out.delete('content-length')
      return new HttpResponse(await response.text(), { status: response.status, headers: out })
    }),
  ]
}
