// The sandbox's own calls to its chains carry `msw/passthrough` in their Accept header, what msw's `bypass()` adds:
// an app's MSW interceptor lets them through whatever handlers it holds at that moment (none yet, or those of the
// previous test's sandbox), so a sandbox made while the app's MSW server listens (a sandbox per test, in beforeEach,
// with `onUnhandledRequest: 'error'`) reaches its anvil. anvil ignores the header.
import { type HttpTransportConfig, http } from 'viem'

/** The headers of every JSON-RPC call the sandbox makes to its own chains. */
export const OWN_RPC_HEADERS = { accept: 'application/json, msw/passthrough' } as const

/** viem's HTTP transport to one of the sandbox's chains, with OWN_RPC_HEADERS. */
export function ownHttp(rpcUrl: string, config: HttpTransportConfig = {}) {
  return http(rpcUrl, { ...config, fetchOptions: { ...config.fetchOptions, headers: OWN_RPC_HEADERS } })
}
