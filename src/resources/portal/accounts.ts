// Portal accounts (FULL's /v1|v2/auth): register, login, logout with a `session_token` cookie.
// Differences from the real service: accounts and sessions live in the sandbox's memory (one registry for every
// tenant); sessions last a day of real time; the cookie is `SameSite=Strict` (same-site across ports of localhost
// still sends it), `Secure` when the caller came over HTTPS (X-Forwarded-Proto), so that it works on http://localhost.
import { randomBytes } from 'node:crypto'
import type { NeutralRequest } from '../../contract/neutral.ts'
import { SESSION_COOKIE, sessionTokenOf } from '../../contract/portal-cookie.ts'
import { clientAddress, overHttps } from '../../contract/security.ts'
import type { Uses } from '../services.ts'
import type { PlatformAccount } from './credentials.ts'
import {
  AlreadyLoggedInError,
  EmailTakenError,
  InvalidCredentialsError,
  PortalOffError,
  SignupRateError,
} from './errors.ts'
import { DUMMY_CREDENTIALS, hashPassword, verifyPassword } from './password.ts'
import type { CredentialsBody } from './schema.ts'

type Ctx = Uses<'portal' | 'ids' | 'now'>

const SESSION_SECONDS = 86400

/** The Set-Cookie header that opens a session (`Secure` over HTTPS): an email login's, or a wallet's (its idle time). */
export function sessionCookie(
  token: string,
  request: NeutralRequest,
  maxAgeSeconds = SESSION_SECONDS,
): string {
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${overHttps(request) ? '; Secure' : ''}`
}

/** The Set-Cookie header that ends one. */
export function clearedSessionCookie(request: NeutralRequest): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0${overHttps(request) ? '; Secure' : ''}`
}

/** 404 when the portal is off (strict mode without --portal). */
export function requirePortal(ctx: Uses<'portal'>): void {
  if (!ctx.portal.enabled) throw new PortalOffError()
}

/** 429 past the per-address limit of registrations and key creations (counts this one). */
export function admitSignup(ctx: Uses<'portal' | 'now'>, request: NeutralRequest): void {
  if (!ctx.portal.admitSignup(clientAddress(request), ctx.now().getTime()))
    throw new SignupRateError(ctx.portal.signupsPerMinute)
}

function refuseLoggedIn(ctx: Ctx, request: NeutralRequest): void {
  const token = sessionTokenOf(request.headers.cookie)
  if (token && ctx.portal.platformOfSession(token, ctx.now().getTime())) throw new AlreadyLoggedInError()
}

function openSession(ctx: Ctx, platform: PlatformAccount, request: NeutralRequest): string {
  const token = randomBytes(32).toString('hex')
  const now = ctx.now().getTime()
  ctx.portal.openSession(token, { platformId: platform.id, expiresAt: now + SESSION_SECONDS * 1000 }, now)
  return sessionCookie(token, request)
}

/** `POST /auth/register`: a new platform, logged in at once. Answers the account and its Set-Cookie. */
export async function register(ctx: Ctx, request: NeutralRequest, body: CredentialsBody) {
  requirePortal(ctx)
  refuseLoggedIn(ctx, request)
  admitSignup(ctx, request)
  const portal = ctx.portal
  const email = body.email.toLowerCase()
  if (portal.platformsByEmail.has(email)) throw new EmailTakenError()
  const { salt, hash } = await hashPassword(body.password)
  // scrypt yields: a concurrent registration of the same email may have won meanwhile
  if (portal.platformsByEmail.has(email)) throw new EmailTakenError()
  const now = ctx.now()
  const platform: PlatformAccount = {
    id: ctx.ids.ulid(now.getTime()),
    email,
    passwordSalt: salt,
    passwordHash: hash,
    // the platform's own world (webhooks managed with the cookie); never accepted as an x-api-key
    tenant: `platform_${randomBytes(16).toString('hex')}`,
    createdAt: now.toISOString(),
  }
  portal.platformsByEmail.set(email, platform)
  portal.platformsById.set(platform.id, platform)
  portal.refuse(platform.tenant)
  return { platform, cookie: openSession(ctx, platform, request) }
}

/** `POST /auth/login`: checks the password (scrypt, constant-time) and opens a session. */
export async function login(ctx: Ctx, request: NeutralRequest, body: CredentialsBody) {
  requirePortal(ctx)
  refuseLoggedIn(ctx, request)
  ctx.portal.logins.admit(clientAddress(request), ctx.now().getTime())
  const platform = ctx.portal.platformsByEmail.get(body.email.toLowerCase())
  const stored = platform ? { salt: platform.passwordSalt, hash: platform.passwordHash } : DUMMY_CREDENTIALS
  const valid = await verifyPassword(body.password, stored.salt, stored.hash)
  if (!platform || !valid) throw new InvalidCredentialsError()
  return { platform, cookie: openSession(ctx, platform, request) }
}

/** `POST /auth/logout`: ends the caller's session (the cookie that authenticated the call). */
export function logout(ctx: Ctx, request: NeutralRequest): void {
  const token = sessionTokenOf(request.headers.cookie)
  if (token) ctx.portal.endSession(token)
}

/** The platform of a cookie-session call. */
export function callerPlatform(ctx: Ctx): PlatformAccount {
  const platform = ctx.portal.platformsById.get(ctx.caller?.platformId ?? '')
  if (!platform) throw new Error('a portal route ran without a cookie session')
  return platform
}
