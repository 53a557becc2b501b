import { z } from 'zod'
import { routesUsing } from '../../contract/route.ts'
import { zod3Invalid } from '../../contract/zod3-issues.ts'
import type { Services } from '../services.ts'
import { admitSignup, clearedSessionCookie, login, logout, register } from './accounts.ts'
import { createKey, deleteKey, keyView, listKeys, toggleKey } from './keys.ts'
import { ApiKeyView, CreateKeyBody, CredentialsBody, PlatformProfile } from './schema.ts'
import { walletChallenge, walletVerify } from './wallet.ts'

const defineRoute = routesUsing<Services<'portal' | 'ids' | 'now' | 'webhooks'>>()

const KeyParams = z.object({ id: z.string() })

/**
 * The portal (FULL 0.8.1): accounts with a `session_token` cookie, API keys, the platform profile. Which routes
 * need the cookie is declared by their `credentials` (register and login are public).
 */
export const portalRoutes = [
  defineRoute({
    method: 'POST',
    path: '/v1/auth/wallet/challenge',
    credentials: ['public'],
    cookies: true,
    surface: 'api',
    summary:
      'A SIWE message for a wallet to sign (valid 5 minutes); a client address has at most --max-challenges waiting (429 past it)',
    statuses: [201, 400, 404, 429],
    body: z.object({ address: z.string().min(1) }),
    handler: (ctx, { body, request }) => ({ status: 201, body: walletChallenge(ctx, request, body.address) }),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/auth/wallet/verify',
    credentials: ['public'],
    cookies: true,
    surface: 'api',
    summary:
      "The wallet's signature of its challenge: opens a session (httpOnly session_token, 15 minutes idle)",
    statuses: [201, 401, 404, 429],
    body: z.object({
      challengeId: z.string().min(1),
      nonce: z.string().min(1),
      message: z.string().min(1),
      signature: z.string().regex(/^0x[0-9a-fA-F]+$/, 'signature must be hex'),
    }),
    async handler(ctx, { body, request }) {
      const { cookie, body: answer } = await walletVerify(ctx, request, body)
      return { status: 201, headers: { 'set-cookie': cookie }, body: answer }
    },
  }),
  ...(['/v1', '/v2'] as const).flatMap((version) => [
    defineRoute({
      method: 'POST',
      path: `${version}/auth/register`,
      credentials: ['public'],
      cookies: true,
      surface: 'api',
      summary: 'Register a platform with an email and password; logs it in (session_token cookie)',
      statuses: [201],
      body: CredentialsBody,
      onInvalid: zod3Invalid,
      async handler(ctx, { body, request }) {
        const { platform, cookie } = await register(ctx, request, body)
        return {
          status: 201,
          headers: { 'set-cookie': cookie },
          body: { id: platform.id, email: platform.email, createdAt: platform.createdAt },
        }
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${version}/auth/login`,
      credentials: ['public'],
      cookies: true,
      surface: 'api',
      summary: 'Log in with an email and password (sets the session_token cookie)',
      statuses: [200],
      body: CredentialsBody,
      onInvalid: zod3Invalid,
      async handler(ctx, { body, request }) {
        const { platform, cookie } = await login(ctx, request, body)
        return {
          status: 200,
          headers: { 'set-cookie': cookie },
          body: { id: platform.id, email: platform.email },
        }
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${version}/auth/logout`,
      credentials: ['portal-session'],
      surface: 'api',
      summary: 'End the session of the cookie',
      statuses: [200],
      responses: { 200: z.object({ success: z.literal(true) }) },
      handler(ctx, { request }) {
        logout(ctx, request)
        return {
          status: 200,
          headers: { 'set-cookie': clearedSessionCookie(request) },
          body: { success: true },
        }
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${version}/key`,
      credentials: ['portal-session'],
      surface: 'api',
      summary: "Create an API key for the session's platform",
      statuses: [201],
      body: CreateKeyBody,
      onInvalid: zod3Invalid,
      responses: { 201: z.object({ key: z.string() }) },
      handler(ctx, { body, request }) {
        admitSignup(ctx, request)
        return { status: 201, body: { key: createKey(ctx, body).key } }
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${version}/key`,
      credentials: ['portal-session'],
      surface: 'api',
      summary: "The session's platform's API keys",
      statuses: [200],
      responses: { 200: z.array(ApiKeyView) },
      handler: (ctx) => ({ status: 200, body: listKeys(ctx).map(keyView) }),
    }),
    defineRoute({
      method: 'PUT',
      path: `${version}/key/:id`,
      credentials: ['portal-session'],
      surface: 'api',
      summary: 'Enable or disable an API key',
      statuses: [200, 404],
      params: KeyParams,
      responses: { 200: ApiKeyView },
      handler: (ctx, { params }) => ({ status: 200, body: keyView(toggleKey(ctx, params.id)) }),
    }),
    defineRoute({
      method: 'DELETE',
      path: `${version}/key/:id`,
      credentials: ['portal-session'],
      surface: 'api',
      summary: 'Delete an API key (it answers 401 from then on)',
      statuses: [200, 404],
      params: KeyParams,
      handler(ctx, { params }) {
        deleteKey(ctx, params.id)
        return { status: 200 }
      },
    }),
  ]),
  defineRoute({
    method: 'GET',
    path: '/v2/platforms/me',
    credentials: ['portal-session'],
    surface: 'api',
    summary: "The session's platform profile",
    statuses: [200],
    responses: { 200: PlatformProfile },
    // sandbox platforms have no crypto-to-fiat production access (a production flag of the real service)
    handler: () => ({ status: 200, body: { hasCryptoToFiatProductionAccess: false } }),
  }),
]
