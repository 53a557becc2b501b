// The portal's `session_token` cookie as plain text: its name and reading it from a Cookie header (which routes'
// CORS answers allow credentials is declared by the routes: `usesCookies`). Pure; the sessions themselves are the
// portal resource's (credentials.ts).

/** Name of the portal's session cookie, as the documents write it. */
export const SESSION_COOKIE = 'session_token'

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
