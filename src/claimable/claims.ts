// The claimable sandboxes of a server (--claimable): each a fresh secret key (CSPRNG) with its expiry. Kept in memory
// and, with --state-dir, in `claims.json` beside state.db (mode 0600: it holds keys; written whole, then renamed,
// before the claim is answered; a temporary file a killed write left is removed at the start), so a restart keeps
// every live key and every expired one refused. An expired claim stays as a tombstone (at most MAX_TOMBSTONES, the
// oldest deleted ones dropped) so its key answers "expired", not "unknown".
import { randomBytes } from 'node:crypto'
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { removeLeftoverTemporariesOf, temporaryPath } from '../contract/temporary-files.ts'
import { keepClaimsPrivate, readClaimsFile } from './claims-file.ts'

/** One claimable sandbox. */
export interface Claim {
  key: string
  createdAt: string
  expiresAt: string
  /** set when it expired: its key is refused from then on */
  expiredAt?: string
  /** set once its state was deleted */
  wiped?: true
  /** the client address (group) that claimed it: live claims per address are bounded */
  address?: string
}

/** Expired claims remembered (their keys answer 401 "expired"); older ones are forgotten. */
const MAX_TOMBSTONES = 10_000

/** The prefix of a claimed key: readable in logs, never a portal key's or a platform tenant's. */
export const CLAIM_PREFIX = 'sk_sandbox_'

export class ClaimBook {
  readonly #claims = new Map<string, Claim>()
  readonly #file: string | null
  readonly #report: (message: string, error: unknown) => void

  /**
   * `report` hears of a write the disk refused after an expiry or a delete: memory holds it (the key refused), the
   * next write or the next start's look at the expiry times brings it to disk; and of a claims.json others could read,
   * made private again.
   */
  constructor(stateDir: string | undefined, report: (message: string, error: unknown) => void = () => {}) {
    this.#report = report
    this.#file = stateDir ? join(stateDir, 'claims.json') : null
    if (!this.#file) return
    removeLeftoverTemporariesOf(this.#file)
    for (const claim of readClaimsFile(this.#file)) this.#claims.set(claim.key, claim as Claim)
    const was = keepClaimsPrivate(this.#file)
    if (was !== null)
      report(
        `claimable: ${this.#file} could be read by other users (mode ${was.toString(8)}); it is 0600 again. Whoever read it can act as every live claimed key.`,
        undefined,
      )
  }

  /** A new claim of `ttlMs` from `now`, written before it is returned; when the disk refuses it, thrown and not kept. */
  create(now: number, ttlMs: number, address?: string): Claim {
    const claim: Claim = {
      key: `${CLAIM_PREFIX}${randomBytes(24).toString('base64url')}`,
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + ttlMs).toISOString(),
      ...(address === undefined ? {} : { address }),
    }
    this.#claims.set(claim.key, claim)
    try {
      this.#save()
    } catch (error) {
      this.#claims.delete(claim.key)
      throw error
    }
    return claim
  }

  get(key: string): Claim | undefined {
    return this.#claims.get(key)
  }

  /** Live claims (not expired yet). */
  get live(): number {
    let n = 0
    for (const claim of this.#claims.values()) if (!claim.expiredAt) n++
    return n
  }

  /** The keys of the live claims (not expired yet). */
  liveKeys(): string[] {
    return [...this.#claims.values()].filter((c) => !c.expiredAt).map((c) => c.key)
  }

  /** Live claims made from `address` (a client address group). */
  liveOf(address: string): number {
    let n = 0
    for (const claim of this.#claims.values()) if (!claim.expiredAt && claim.address === address) n++
    return n
  }

  /** Live claims whose expiry has passed at `now`. */
  due(now: number): Claim[] {
    return [...this.#claims.values()].filter((c) => !c.expiredAt && Date.parse(c.expiresAt) <= now)
  }

  /** Expired claims whose state is not deleted yet (a stop came first). */
  unwiped(): Claim[] {
    return [...this.#claims.values()].filter((c) => c.expiredAt && !c.wiped)
  }

  /** Records that the state of expired claims was deleted, in one write of claims.json. */
  wiped(keys: readonly string[]): void {
    let changed = false
    for (const key of keys) {
      const claim = this.#claims.get(key)
      if (!claim?.expiredAt || claim.wiped) continue
      claim.wiped = true
      changed = true
    }
    if (changed) this.#saveOrReport()
  }

  /**
   * Marks claims expired (their keys refused), in one write of claims.json (a minute's sweep may expire every live
   * claim: a write each, of the whole file, held the event loop 8 s for 1000), forgetting the oldest tombstones past
   * the bound: deleted ones only (one whose state is still to delete stays, or no sweep or start would delete it).
   */
  expired(keys: readonly string[], now: number): void {
    let changed = false
    for (const key of keys) {
      const claim = this.#claims.get(key)
      if (!claim || claim.expiredAt) continue
      claim.expiredAt = new Date(now).toISOString()
      changed = true
    }
    if (!changed) return
    const tombstones = [...this.#claims.values()].filter((c) => c.expiredAt)
    let excess = tombstones.length - MAX_TOMBSTONES
    for (const old of tombstones) {
      if (excess <= 0) break
      if (!old.wiped) continue
      this.#claims.delete(old.key)
      excess--
    }
    this.#saveOrReport()
  }

  #saveOrReport(): void {
    try {
      this.#save()
    } catch (error) {
      this.#report('claimable: claims.json could not be written (kept in memory until the next write)', error)
    }
  }

  #save(): void {
    if (!this.#file) return
    const temporary = temporaryPath(this.#file)
    const fd = openSync(temporary, 'w', 0o600)
    try {
      try {
        writeSync(fd, JSON.stringify({ format: 1, claims: [...this.#claims.values()] }))
        fsyncSync(fd)
      } finally {
        closeSync(fd)
      }
      renameSync(temporary, this.#file)
    } catch (error) {
      rmSync(temporary, { force: true })
      throw error
    }
  }
}
