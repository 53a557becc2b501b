// What a sandbox shared on a server needs to hold against strangers (a demo environment): which listener it is on,
// which origins may use credentials, who may list keys, how far a clock may move, and the headers every page sends.
// Pure: the sandbox builds `SecuritySettings` from its options; dispatch, auth, control and resources read it.
import type { NeutralRequest } from './neutral.ts'
import { requestOrigin } from './origins.ts'
import { publicBaseUrl } from './public-url.ts'

/** Sandbox-wide security settings (from `SandboxOptions`; docs/shared-demo.md). */
export interface SecuritySettings {
  /** the listener is not loopback-only (`--host 0.0.0.0`, Docker): stricter defaults apply */
  exposed: boolean
  /** strict mode (`--api-keys`) with the portal turned on (`--portal`); outside strict mode the portal is always on */
  portal: boolean
  /** origins (scheme://host[:port]) allowed credentialed CORS and cross-origin control writes, besides the sandbox's own */
  allowedOrigins: ReadonlySet<string>
  /** `--admin-key`: the value of `x-sandbox-admin-key` that may list every key */
  adminKey: string | undefined
  /** how far past real time a key's clock may be moved, in ms */
  maxClockAdvanceMs: number
}

/** The default bound of a clock's advance: ten years (years, not centuries). */
export const DEFAULT_MAX_CLOCK_ADVANCE_MS = 10 * 365 * 86_400_000

/** Whether a host name or address names this machine only (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase()
  return (
    h === 'localhost' ||
    h.endsWith('.localhost') ||
    h === '::1' ||
    /^127\.\d+\.\d+\.\d+$/.test(h) ||
    /^::ffff:127\./.test(h)
  )
}

/**
 * Whether the request's Origin may act with the browser's credentials (the portal cookie: the sandbox's own origin or one
 * of `--allowed-origins`, never an echoed one) or write through the control API (the same, plus, on a loopback listener
 * only, another loopback origin: a developer's app on another port). A write without Origin is no browser's
 * cross-origin call.
 */
export function trustedOrigin(
  request: NeutralRequest,
  settings: SecuritySettings,
  purpose: 'credentials' | 'control-write',
): boolean {
  const header = request.headers.origin
  if (header === undefined) return purpose === 'control-write'
  const origin = requestOrigin(header)
  if (!origin) return false
  if (settings.allowedOrigins.has(origin)) return true
  // the sandbox's own pages: the host the caller addressed (whatever the scheme: a TLS proxy may not say it was https)
  const url = new URL(origin)
  if (url.host === new URL(publicBaseUrl(request)).host) return true
  // the browser harness (`remoteTenant`) drives a local sandbox from an app on another local port
  return purpose === 'control-write' && !settings.exposed && isLoopbackHost(url.hostname)
}

/** Content-Security-Policy of every page: its own scripts and styles only, no plugins, no foreign forms. */
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'"

/** The two sets of page headers, built once (`pageSecurityHeaders` hands out copies: middleware may add to them). */
const PAGE_HEADERS: Record<'none' | 'any', Readonly<Record<string, string>>> = {
  none: {
    'content-security-policy': `${CSP}; frame-ancestors 'none'`,
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
  },
  any: {
    'content-security-policy': `${CSP}; frame-ancestors *`,
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
  },
}

/**
 * The headers of an HTML page. `framing: 'any'` for a page the service documents as embedded (the agreement
 * iframe); every other page refuses to be framed.
 */
export function pageSecurityHeaders(framing: 'none' | 'any' = 'none'): Record<string, string> {
  return { ...PAGE_HEADERS[framing] }
}

/** Whether the caller reached the sandbox over HTTPS (a proxy in front says so with X-Forwarded-Proto). */
export function overHttps(request: NeutralRequest): boolean {
  return publicBaseUrl(request).startsWith('https:')
}

/**
 * A URL the sandbox may render as a link or follow as a redirect: absolute http or https, no credentials, no
 * control characters. Answers the reason when it is not one.
 */
export function linkUrlProblem(value: string): string | null {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f\s]/.test(value)) return 'must not contain spaces or control characters'
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return 'must be an absolute http or https URL'
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL'
  if (url.username || url.password) return 'must not carry credentials'
  return null
}

/**
 * The client's address, for per-address limits: the peer, or, when the peer is a proxy on this machine or a private
 * network, the last address of X-Forwarded-For (the one that proxy saw). MSW calls have none: `local`.
 */
export function clientAddress(request: NeutralRequest): string {
  const peer = request.remoteAddress
  if (!peer) return 'local'
  const forwarded = request.headers['x-forwarded-for']?.split(',').at(-1)?.trim()
  const privatePeer =
    isLoopbackHost(peer) || /^(::ffff:)?(10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.)|^f[cd]/i.test(peer)
  return forwarded && privatePeer ? forwarded : peer
}

/** The address a bound counts: an IPv4 address (mapped into IPv6 or not) as it is, an IPv6 address by its /64. */
export function addressGroup(address: string): string {
  const v4 = /^(?:::ffff:)?(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address)
  if (v4) return v4[1]!
  if (!address.includes(':')) return address
  const bare = address.split('%')[0]!.toLowerCase()
  const [head = '', tail] = bare.split('::')
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const groups =
    tail === undefined
      ? left
      : [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
  return `${groups
    .slice(0, 4)
    .map((g) => (Number.parseInt(g, 16) || 0).toString(16))
    .join(':')}::/64`
}
