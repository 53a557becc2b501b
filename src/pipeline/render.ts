// The render stage: how an answer leaves the pipeline. Errors in the service's shape (errors/render-error.ts), a
// JSON body serialised once, the answer held until its changes are committed (--state-dir), CORS headers for
// browsers, the security headers of pages and `nosniff` on everything else.
import type { NeutralRequest } from '../contract/neutral.ts'
import { usesCookies } from '../contract/route.ts'
import { ROUTE_NOT_FOUND_HEADER, SandboxError } from '../contract/sandbox-error.ts'
import { pageSecurityHeaders, trustedOrigin } from '../contract/security.ts'
import type { SandboxState } from '../control/services.ts'
import { renderError } from '../errors/render-error.ts'
import { createRouter } from './router.ts'
import type { AnyRoute, Render } from './stages.ts'

/** Request headers a browser app may send; preflights allow all of them. */
export const CORS_ALLOWED_HEADERS = [
  'content-type',
  'authorization',
  'x-api-key',
  'x-client-id',
  'x-orchestrator-key',
  'x-request-id',
  'x-sandbox-scenario',
  'x-sandbox-delay',
  'x-sandbox-status',
  'x-sandbox-admin-key',
  'x-sandbox-webhook-chaos',
]

const corsHeaders: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET,POST,PUT,PATCH,DELETE,OPTIONS',
  'access-control-allow-headers': CORS_ALLOWED_HEADERS.join(','),
  'access-control-expose-headers': `retry-after,x-request-network-delivery,x-sandbox-fault,x-sandbox-hint,${ROUTE_NOT_FOUND_HEADER}`,
  'access-control-max-age': '600',
}

export function renderStage(routes: readonly AnyRoute[], shared: SandboxState): Render {
  // the paths whose CORS answers allow credentials, read off the routes' declarations (a preflight names no method)
  const cookieRoutes = createRouter(routes.filter((route) => usesCookies(route)))
  const allowsCredentials = (path: string) => cookieRoutes.matchAnyMethod(path) !== undefined

  /**
   * CORS headers; the portal's cookie routes name the Origin and allow credentials (browsers send the cookie) for the
   * sandbox's own origin and `--allowed-origins` only.
   */
  function cors(request: NeutralRequest): Record<string, string> {
    const origin = request.headers.origin
    if (
      !origin ||
      !allowsCredentials(request.path) ||
      !trustedOrigin(request, shared.security, 'credentials')
    )
      return { ...corsHeaders }
    return {
      ...corsHeaders,
      'access-control-allow-origin': origin,
      'access-control-allow-credentials': 'true',
      vary: 'Origin',
    }
  }

  return {
    preflight: (request) => ({ status: 204, headers: cors(request), body: undefined }),
    error: (error) => renderError(error, shared.log),
    body(response) {
      if (response.body !== undefined && !response.contentType && response.text === undefined) {
        response.text = JSON.stringify(response.body)
      }
      return response
    },
    async afterCommit(durable, response) {
      try {
        await durable
        return response
      } catch {
        return renderError(
          new SandboxError(
            503,
            'The sandbox could not save this change to its --state-dir yet: it is kept in memory and written with the next one; read it back before you send it again',
          ),
          shared.log,
        )
      }
    },
    headers(request, response) {
      // browsers send Origin on every cross-origin call: answer them with CORS headers, skip the bytes otherwise
      if (request.headers.origin !== undefined) response.headers = { ...cors(request), ...response.headers }
      // pages run only their own code (a route may loosen the frame policy); nothing is sniffed as another type
      if (response.contentType?.startsWith('text/html') && !response.headers['content-security-policy'])
        response.headers = { ...pageSecurityHeaders(), ...response.headers }
      // a copy in every case: a route may answer with a constant headers object, and the transports add theirs to
      // the answer's own (node-http's content type and length)
      else if (!response.headers['x-content-type-options'])
        response.headers = { ...response.headers, 'x-content-type-options': 'nosniff' }
      else response.headers = { ...response.headers }
      return response
    },
  }
}
