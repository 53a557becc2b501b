import { createHash } from 'node:crypto'
import { createIdGenerator, type IdGenerator } from './ids.ts'

/**
 * One seeded id generator per key (with `--seed`): a key's ids (session tokens, client IDs, request salts, ...)
 * repeat run after run whatever other keys do meanwhile, and two keys never draw the same sequence.
 */
export class TenantIds {
  readonly #seed: number
  readonly #generators = new Map<string, IdGenerator>()

  constructor(seed: number) {
    this.#seed = seed
  }

  /** The generator of `tenant`, created on first use from the sandbox seed and the key. */
  for(tenant: string): IdGenerator {
    let ids = this.#generators.get(tenant)
    if (!ids) {
      const digest = createHash('sha256').update(`${this.#seed}\u0000ids\u0000${tenant}`).digest()
      ids = createIdGenerator(digest.readUInt32BE(0))
      this.#generators.set(tenant, ids)
    }
    return ids
  }

  /** Drops a key's generator: its next ids start the sequence again (after a reset or an eviction). */
  forget(tenant: string): void {
    this.#generators.delete(tenant)
  }
}
