// The SIWE challenges of wallet login waiting for their signature (anyone may ask for one). Bounded per client address
// (an IPv6 address counts with its /64: one host holds a whole /64) so that no address crowds out another's: past
// `perAddress` waiting challenges an address gets 429 until one is signed or expires. Past `max` in all (many
// addresses), the oldest challenge of the address holding the most goes: an address holding fewer than every other
// keeps its challenges; when every address holds one, a new challenge answers 429 and none waiting is dropped. Expired
// challenges go first, as new ones arrive.
import { SandboxError } from '../../contract/sandbox-error.ts'
import { addressGroup } from '../../contract/security.ts'

/** A SIWE challenge of wallet login waiting for its signature. */
export interface WalletChallenge {
  address: string
  nonce: string
  message: string
  /** ms since epoch, real time */
  expiresAt: number
}

/** Challenges waiting at once in all: past it, the oldest of the address holding the most is dropped. */
export const MAX_PENDING_CHALLENGES = 10_000
/** Default challenges one client address may have waiting (a shared listener's; 1000 on a loopback one). */
export const DEFAULT_CHALLENGES_PER_ADDRESS = 20

/** 429: the client address has the most challenges waiting it may; names the bound and the flag that raises it. */
export class ChallengeLimitError extends SandboxError {
  override name = 'ChallengeLimitError'
  constructor(perAddress: number, retryAfterSeconds: number) {
    super(
      429,
      `At most ${perAddress} wallet-login challenges may wait for their signature per client address: sign one, let them expire (5 minutes), or start the sandbox with a higher --max-challenges`,
      { headers: { 'retry-after': String(retryAfterSeconds) } },
    )
  }
}

/** 429: the sandbox holds its most challenges, one per client address: none is dropped for a new one. */
export class ChallengesFullError extends SandboxError {
  override name = 'ChallengesFullError'
  constructor(max: number) {
    super(
      429,
      `The sandbox holds its most wallet-login challenges waiting for their signature (${max}, one per client address): sign one, or ask again once some expire (5 minutes)`,
      { headers: { 'retry-after': '60' } },
    )
  }
}

export { addressGroup }

/** The challenges waiting, by id, by address and by how many each address holds. */
export class ChallengeBook {
  readonly perAddress: number
  readonly max: number
  /** challengeId -> challenge and its address group, oldest first */
  readonly #all = new Map<string, { challenge: WalletChallenge; group: string }>()
  /** address group -> its challenge ids, oldest first */
  readonly #byGroup = new Map<string, Set<string>>()
  /** n -> the address groups holding n challenges */
  readonly #holding = new Map<number, Set<string>>()
  /** the most challenges one address group holds */
  #most = 0

  constructor(options: { perAddress?: number; max?: number } = {}) {
    this.perAddress = options.perAddress ?? DEFAULT_CHALLENGES_PER_ADDRESS
    this.max = options.max ?? MAX_PENDING_CHALLENGES
  }

  /** Challenges waiting. */
  get size(): number {
    return this.#all.size
  }

  has(id: string): boolean {
    return this.#all.has(id)
  }

  get(id: string): WalletChallenge | undefined {
    return this.#all.get(id)?.challenge
  }

  /** Challenges the client address (its group) has waiting. */
  waiting(address: string): number {
    return this.#byGroup.get(addressGroup(address))?.size ?? 0
  }

  /**
   * Keeps a new challenge of the client `address`: expired ones go first; 429 (ChallengeLimitError) when the
   * address has `perAddress` waiting; past `max` in all, the oldest of the address holding the most is dropped
   * (ChallengesFullError, 429, when every address holds one).
   */
  add(id: string, challenge: WalletChallenge, address: string, now: number): void {
    for (const [old, { challenge: stale }] of this.#all) {
      if (stale.expiresAt > now) break
      this.delete(old)
    }
    const group = addressGroup(address)
    const mine = this.#byGroup.get(group)
    if (mine && mine.size >= this.perAddress) {
      const oldest = this.#all.get(mine.values().next().value!)!.challenge
      throw new ChallengeLimitError(this.perAddress, Math.max(1, Math.ceil((oldest.expiresAt - now) / 1000)))
    }
    while (this.#all.size >= this.max) {
      // every address holds one: none holds more than another, so none loses its challenge to this one
      if (this.#most <= 1) throw new ChallengesFullError(this.max)
      const heaviest = this.#holding.get(this.#most)!.values().next().value!
      this.delete(this.#byGroup.get(heaviest)!.values().next().value!)
    }
    this.#all.set(id, { challenge, group })
    // read again: making room may have taken this address's only challenge, and its set with it
    let ids = this.#byGroup.get(group)
    if (!ids) {
      ids = new Set<string>()
      this.#byGroup.set(group, ids)
    }
    this.#move(group, ids.size, ids.size + 1)
    ids.add(id)
  }

  /** Forgets a challenge (signed, refused, expired); false when none waits under `id`. */
  delete(id: string): boolean {
    const entry = this.#all.get(id)
    if (!entry) return false
    this.#all.delete(id)
    const ids = this.#byGroup.get(entry.group)!
    ids.delete(id)
    if (ids.size === 0) this.#byGroup.delete(entry.group)
    this.#move(entry.group, ids.size + 1, ids.size)
    return true
  }

  /** Moves an address group from holding `from` challenges to holding `to`. */
  #move(group: string, from: number, to: number): void {
    const was = this.#holding.get(from)
    was?.delete(group)
    if (was?.size === 0) this.#holding.delete(from)
    if (to > 0) {
      let now = this.#holding.get(to)
      if (!now) {
        now = new Set()
        this.#holding.set(to, now)
      }
      now.add(group)
    }
    if (to > this.#most) this.#most = to
    while (this.#most > 0 && !this.#holding.has(this.#most)) this.#most--
  }
}
