import type { NeutralRequest } from './neutral.ts'

const first = (value: string | undefined) => value?.split(',')[0]?.trim() || undefined

/**
 * The base URL a client reached the sandbox at, for links it hands out (a payer's agreementUrl and kycUrl, scenario seeds): from
 * X-Forwarded-Proto/Host/Prefix behind a proxy, else the Host header; a malformed host (or one no URL takes) falls back to localhost.
 */
export function publicBaseUrl(request: NeutralRequest): string {
  const h = request.headers
  const proto = first(h['x-forwarded-proto']) === 'https' ? 'https' : 'http'
  const rawHost = first(h['x-forwarded-host']) ?? first(h.host) ?? 'localhost'
  // the shape first (cheap), then what the shape lets through that no URL takes (a port past 65535, `[:::]`): every
  // caller may build a URL of the answer (the CORS and control-API origin checks do, on the request path)
  const host =
    /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(rawHost) &&
    URL.canParse(`http://${rawHost}`)
      ? rawHost
      : 'localhost'
  const prefix = (first(h['x-forwarded-prefix']) ?? '').replace(/\/+$/, '')
  const safePrefix = /^(\/[A-Za-z0-9._~-]+)*$/.test(prefix) ? prefix : ''
  return `${proto}://${host}${safePrefix}`
}
