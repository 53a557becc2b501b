// The portal's `session_token` cookie as plain text: its name, reading it from a Cookie header, and which paths'
// CORS answers allow credentials. Pure; the sessions themselves are the portal resource's (credentials.ts).

/** Name of the portal's session cookie, as the documents write it. */
export const SESSION_COOKIE = 'session_token'

/** Paths whose browser calls may carry the portal cookie: their CORS answers allow credentials. */
const credentialedPaths = /^\/v[12]\/(auth|key|webhook|request-tech|platforms)(\/|$)/

/** True when a path's CORS answers must name the Origin and allow credentials (cookie sessions). */
export function allowsCredentials(path: string): boolean {
  return credentialedPaths.test(path)
}

/**
 * The `session_token` value of a Cookie header, if any. The first one counts (as the `cookie` package reads it):
 * MSW appends the cookies of its browser-like jar after those a caller sets itself. Cookie values hold neither `;`
 * nor `,`, and a joined header may use either.
 */
export function sessionTokenOf(cookieHeader: string | undefined): string | undefined {
  for (const part of (cookieHeader ?? '').split(/[;,]/)) {
    const eq = part.indexOf('=')
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) {
      return part.slice(eq + 1).trim() || undefined
    }
  }
  return undefined
}
