// The portal's own state (FULL's /auth, /key and cookie-session endpoints): platform accounts, their cookie
// sessions, the API keys they issued and the values refused as x-api-key. One registry per sandbox (the `portal`
// service). Authentication reads it only through the PortalCredentialLookup port (src/contract/ports.ts): to
// refuse a disabled or deleted portal key, to let portal keys through strict mode, and to resolve a
// `session_token` cookie. Keys it never issued are untouched: any other key stays its own tenant, as before.
import type { KeyStanding, PortalCredentialLookup } from '../../contract/ports.ts'

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
}

/** Sandbox-wide portal state, with the indexes authentication needs. */
export class PortalCredentials implements PortalCredentialLookup {
  readonly enabled: boolean
  readonly signupsPerMinute: number
  /** client address -> the start of its current minute and the accounts and keys it created in it */
  readonly #signups = new Map<string, { since: number; count: number }>()
  /** lower-case email -> account */
  readonly platformsByEmail = new Map<string, PlatformAccount>()
  readonly platformsById = new Map<string, PlatformAccount>()
  /** session_token cookie value -> its platform and expiry (ms since epoch, real time) */
  readonly sessions = new Map<string, { platformId: string; expiresAt: number; idleMs?: number }>()
  /** SIWE challenges of wallet login (wallet.ts), by challengeId; single use, 5 minutes */
  readonly walletChallenges = new Map<
    string,
    { address: string; nonce: string; message: string; expiresAt: number }
  >()
  /** key value -> record */
  readonly keys = new Map<string, PortalKey>()
  /** values that must never pass as x-api-key: deleted portal keys and platform tenants */
  readonly #refused = new Set<string>()

  constructor(options: PortalOptions = {}) {
    this.enabled = options.enabled ?? true
    this.signupsPerMinute = options.signupsPerMinute ?? 10
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

  /** The platform of a live session token; expired tokens are dropped. */
  platformOfSession(token: string, now: number): PlatformAccount | undefined {
    if (!this.enabled) return undefined
    const session = this.sessions.get(token)
    if (!session) return undefined
    if (now >= session.expiresAt) {
      this.sessions.delete(token)
      return undefined
    }
    // a wallet session ends after its idle timeout: each use pushes its end further
    if (session.idleMs) session.expiresAt = now + session.idleMs
    return this.platformsById.get(session.platformId)
  }
}
