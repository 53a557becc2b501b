// The portal's own state (FULL's /auth, /key and cookie-session endpoints): platform accounts, their cookie
// sessions, the API keys they issued and the values refused as x-api-key. One registry per sandbox (the `portal`
// service). Authentication reads it only through the PortalCredentialLookup port (src/contract/ports.ts): to
// refuse a disabled or deleted portal key, to let portal keys through strict mode, and to resolve a
// `session_token` cookie. Keys it never issued are untouched: any other key stays its own tenant, as before.
import type { KeyStanding, PortalCredentialLookup } from '../../contract/ports.ts'
import { ChallengeBook } from './challenges.ts'
import { LoginRate } from './login-rate.ts'

/** A platform (portal account). `tenant` is the world its cookie-session calls use (never usable as x-api-key). */
export interface PlatformAccount {
  id: string
  email: string
  /** scrypt parameters and output, hex */
  passwordSalt: string
  passwordHash: string
  tenant: string
  createdAt: string
}

/** An API key issued through `POST /v1|v2/key`. */
export interface PortalKey {
  id: string
  platformId: string
  label: string
  key: string
  isSandbox: boolean
  isActive: boolean
  createdAt: string
}

/** Options of the portal (from the sandbox's options). */
export interface PortalOptions {
  /** false in strict mode without --portal: no registration, login or key, and issued keys do not pass */
  enabled?: boolean
  /** registrations and key creations one client address may make per minute (default 10) */
  signupsPerMinute?: number
  /** wallet-login challenges one client address may have waiting (default 20) */
  challengesPerAddress?: number
}

/** A cookie session: its platform and its end (ms since epoch, real time); a wallet's is pushed by each use. */
export interface PortalSession {
  platformId: string
  expiresAt: number
  /** a wallet session's idle timeout: each use ends it this long after */
  idleMs?: number
}

/** Live sessions one platform may hold at once: a new login past it ends the platform's oldest session. */
export const MAX_SESSIONS_PER_PLATFORM = 20
/** Expired sessions are swept when a session opens, at most this often (ms). */
export const SESSION_SWEEP_MS = 60_000

/** Sandbox-wide portal state, with the indexes authentication needs. */
export class PortalCredentials implements PortalCredentialLookup {
  readonly enabled: boolean
  readonly signupsPerMinute: number
  /** client address -> the start of its current minute and the accounts and keys it created in it */
  readonly #signups = new Map<string, { since: number; count: number }>()
  /** lower-case email -> account */
  readonly platformsByEmail = new Map<string, PlatformAccount>()
  readonly platformsById = new Map<string, PlatformAccount>()
  /** session_token cookie value -> its platform and expiry (read it; open and end through openSession, endSession) */
  readonly sessions = new Map<string, PortalSession>()
  /** platform id -> its session tokens, oldest first */
  readonly #sessionsOf = new Map<string, Set<string>>()
  #sweptAt = Number.NEGATIVE_INFINITY
  /** SIWE challenges of wallet login (wallet.ts) waiting for their signature, bounded per client address */
  readonly walletChallenges: ChallengeBook
  /** password checks per client address and minute (login-rate.ts) */
  readonly logins: LoginRate
  /** key value -> record */
  readonly keys = new Map<string, PortalKey>()
  /** values that must never pass as x-api-key: deleted portal keys and platform tenants */
  readonly #refused = new Set<string>()

  constructor(options: PortalOptions = {}) {
    this.enabled = options.enabled ?? true
    this.signupsPerMinute = options.signupsPerMinute ?? 10
    this.logins = new LoginRate(this.signupsPerMinute)
    this.walletChallenges = new ChallengeBook(
      options.challengesPerAddress !== undefined ? { perAddress: options.challengesPerAddress } : {},
    )
  }

  /** Counts one creation (account or key) from a client address; false past the limit of the current minute. */
  admitSignup(address: string, now: number): boolean {
    let window = this.#signups.get(address)
    if (!window || now - window.since >= 60_000) {
      // forget addresses whose minute is over, so the map stays as small as the traffic of one minute
      for (const [a, w] of this.#signups) if (now - w.since >= 60_000) this.#signups.delete(a)
      window = { since: now, count: 0 }
      this.#signups.set(address, window)
    }
    window.count++
    return window.count <= this.signupsPerMinute
  }

  /**
   * Issued keys answer by their state (with the portal off, they are nobody's: strict mode refuses them); refused values
   * 401; everything else is `unknown` (any key is a tenant).
   */
  standing(key: string): KeyStanding {
    const issued = this.keys.get(key)
    if (issued && this.enabled) return issued.isActive ? 'active' : 'refused'
    return this.#refused.has(key) ? 'refused' : 'unknown'
  }

  /** Makes a value unusable as x-api-key (a deleted key, a platform's internal tenant). */
  refuse(value: string): void {
    this.#refused.add(value)
  }

  /**
   * Opens a session. Sessions that expired unused are swept first (at most every `SESSION_SWEEP_MS`), and past
   * `MAX_SESSIONS_PER_PLATFORM` live sessions of its platform the oldest ends: logins in a loop cannot grow the map.
   */
  openSession(token: string, session: PortalSession, now: number): void {
    if (now - this.#sweptAt >= SESSION_SWEEP_MS) {
      this.#sweptAt = now
      for (const [t, s] of this.sessions) if (now >= s.expiresAt) this.endSession(t)
    }
    this.sessions.set(token, session)
    let mine = this.#sessionsOf.get(session.platformId)
    if (!mine) {
      mine = new Set()
      this.#sessionsOf.set(session.platformId, mine)
    }
    mine.add(token)
    for (const oldest of mine) {
      if (mine.size <= MAX_SESSIONS_PER_PLATFORM) break
      this.endSession(oldest)
    }
  }

  /** Ends a session (logout, expiry); an unknown token is ignored. */
  endSession(token: string): void {
    const session = this.sessions.get(token)
    if (!session) return
    this.sessions.delete(token)
    const mine = this.#sessionsOf.get(session.platformId)
    mine?.delete(token)
    if (mine?.size === 0) this.#sessionsOf.delete(session.platformId)
  }

  /** The platform of a live session token; expired tokens are dropped. */
  platformOfSession(token: string, now: number): PlatformAccount | undefined {
    if (!this.enabled) return undefined
    const session = this.sessions.get(token)
    if (!session) return undefined
    if (now >= session.expiresAt) {
      this.endSession(token)
      return undefined
    }
    // a wallet session ends after its idle timeout: each use pushes its end further
    if (session.idleMs) session.expiresAt = now + session.idleMs
    return this.platformsById.get(session.platformId)
  }
}
