// Origins as client IDs store them: scheme + host + port, lower case, no path. Browsers send exactly this form
// in the Origin header, so a stored origin and a request's Origin compare as plain strings.

/** An origin normalised for storage, or the reason it cannot be one. */
export type OriginResult = { origin: string } | { error: string }

const loopbackHosts = new Set(['localhost', '127.0.0.1'])

/**
 * Normalises an allowed domain: `https://Shop.Example.com:443/` -> `https://shop.example.com`. Only https,
 * except http on localhost and 127.0.0.1 (as the service documents); no path, query, fragment or credentials.
 */
export function normalizeOrigin(value: string): OriginResult {
  let url: URL
  try {
    url = new URL(value.trim())
  } catch {
    return { error: `${value} is not a URL (expected an origin such as https://app.example.com)` }
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { error: `${value} must use https` }
  }
  if (url.protocol === 'http:' && !loopbackHosts.has(url.hostname)) {
    return { error: `${value} must use https (http is only allowed for localhost and 127.0.0.1)` }
  }
  if (url.username || url.password) return { error: `${value} must not carry credentials` }
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) {
    return { error: `${value} must be an origin (scheme://host[:port]) without a path, query or fragment` }
  }
  return { origin: url.origin }
}

/** The origin a browser sent in its Origin header, normalised; null when absent or opaque (`null`). */
export function requestOrigin(header: string | undefined): string | null {
  if (!header || header === 'null') return null
  try {
    const url = new URL(header)
    return url.origin === 'null' ? null : url.origin
  } catch {
    return null
  }
}
