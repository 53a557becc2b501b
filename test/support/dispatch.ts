// A call as a key with a JSON body, through a sandbox's own dispatcher (no HTTP) or over HTTP: what the state-dir and
// claimable tests make, where the sandbox they call changes from one start to the next.
import type { Sandbox } from '../../src/sandbox.ts'
import type { Loose } from './loose.ts'

/** The smallest valid body of `POST /v2/request` (a token request on the default chain, to a fixed payee). */
export const CREATE_BODY = {
  amount: '10',
  invoiceCurrency: 'FAU-sepolia',
  paymentCurrency: 'FAU-sepolia',
  payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
} as const

/**
 * `call(method, path, apiKey, body?, query?)` on whatever sandbox `current()` names at the time of the call (a null
 * key sends none).
 */
export function dispatchAs(current: () => Sandbox) {
  return async (
    method: string,
    path: string,
    apiKey: string | null,
    body?: unknown,
    query: Record<string, string> = {},
  ) => {
    const res = await current().dispatch({
      method,
      path,
      query,
      headers: {
        'content-type': 'application/json',
        host: '127.0.0.1:8080',
        ...(apiKey ? { 'x-api-key': apiKey } : {}),
      },
      rawBody: body === undefined ? undefined : JSON.stringify(body),
    })
    return { status: res.status, body: res.body as Loose }
  }
}

/** The same over HTTP, to the server `base()` names (a key left out sends none). */
export function fetchAs(base: () => string) {
  return async (method: string, path: string, key: string | undefined, body?: unknown) => {
    const response = await fetch(`${base()}${path}`, {
      method,
      headers: { ...(key ? { 'x-api-key': key } : {}), 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    return { status: response.status, body: (await response.json()) as Loose }
  }
}
