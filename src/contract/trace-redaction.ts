// What a trace may say of a URL: spans go to a collector the operator reads, and a path or query can carry a secret
// (a secure payment link's token, a session, a payer page's or an onboarding intent's token, a receiver's key in a
// webhook URL). Secret-named path parameters keep their pattern's name, unknown segments are masked, a URL's query
// values (a receiver names its secret as it likes: `pwd`, `hmac`, `s`) and credentials are replaced as OpenTelemetry's
// conventions say (`REDACTED`).

/** A parameter or query name whose value is a credential. */
const SECRET_NAME = /token|secret|session|passw|key|sig|auth|code|credential|otp|jwt|bearer/i

/** A path segment read as a word of a route (lower-case words, `-`, `_` and `.` between; a version `v2`). */
const WORD = /^(?:[a-z_]+(?:[-.][a-z_]+)*|v\d+)$/

export const REDACTED = 'REDACTED'

/**
 * The parameters that name a page's asset file (`/__sandbox/payer-pages/:file`, `/__sandbox/secure-payment/:asset`,
 * the dashboard's, the guides', a brand's): the pages' own links carry their token beside them, so a token pasted
 * into the path lands here.
 */
const ASSET_PARAMS = new Set(['file', 'asset'])

/** Whether a path parameter named `name` holds a secret. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name)
}

/**
 * A matched call's path for a span: the route's pattern with its parameters' values, a secret-named one left as
 * `{name}` (`/v2/secure-payments/{token}/pay`).
 */
export function tracedPath(pattern: string, params: Readonly<Record<string, string>>): string {
  return pattern.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_whole, name: string) => {
    const value = params[name]
    if (value === undefined || isSecretName(name)) return `{${name}}`
    // a page's asset is named by a word (`app.js`): anything else there (a token sent to the wrong path) is masked
    if (ASSET_PARAMS.has(name)) return WORD.test(value) ? value : '{masked}'
    return maskedSegment(value)
  })
}

/** A path no route names, for a span: each segment that is not a word is `{masked}` (ids and tokens alike). */
export function maskedPath(path: string): string {
  return path
    .split('/')
    .map((segment) => (segment === '' || WORD.test(segment) ? segment : '{masked}'))
    .join('/')
}

/** A parameter's value as a path segment: as it is when it is plain (ids, hashes, words), else `{masked}`. */
function maskedSegment(value: string): string {
  return /^[A-Za-z0-9._~-]{1,200}$/.test(value) ? value : '{masked}'
}

/**
 * A URL (a webhook's) for a span: its user and password `REDACTED`, its host's labels that are not words `{masked}`
 * (an address as it is), its path as `maskedPath`, its query parameters'
 * names (a name that is not a word `{masked}`, as a path's segments) with every value `REDACTED`, no fragment. Not a
 * URL: `{masked}`.
 */
export function tracedUrl(text: string): string {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return '{masked}'
  }
  const credentials = url.username || url.password ? `${REDACTED}:${REDACTED}@` : ''
  // a name that is not a word is masked too: a bare `?<token>` carries its secret as a name
  const query = [...url.searchParams.keys()]
    .map((name) => `${WORD.test(name) ? name : '{masked}'}=${REDACTED}`)
    .join('&')
  return `${url.protocol}//${credentials}${maskedHost(url)}${maskedPath(url.pathname)}${query ? `?${query}` : ''}`
}

/** The longest subdomain label a span shows (`webhooks`, `hooks`, `api`): a longer one may be a receiver's id. */
const SUBDOMAIN_WORD = 10

/**
 * A URL's host for a span: an address as it is; a name's labels that are not words `{masked}`, and, left of its
 * last two labels (the site's own name), a word longer than SUBDOMAIN_WORD too: a receiver's secret subdomain can be
 * letters only (`abcdefghijkl.m.pipedream.net`). An empty label (a trailing dot) stays empty.
 */
function maskedHost(url: URL): string {
  const { hostname, port } = url
  const address = hostname.startsWith('[') || /^\d{1,3}(?:\.\d{1,3}){3}$/.test(hostname)
  const labels = hostname.split('.')
  // the site's own name: the last two labels that are not empty
  let site = labels.length
  for (let named = 0; site > 0 && named < 2; ) if (labels[--site] !== '') named++
  const name = address
    ? hostname
    : labels
        .map((label, i) => {
          if (label === '') return label
          if (!WORD.test(label)) return '{masked}'
          return i < site && label.length > SUBDOMAIN_WORD ? '{masked}' : label
        })
        .join('.')
  return port ? `${name}:${port}` : name
}
