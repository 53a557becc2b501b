// --state-dir: the journal of a key reset while some of its journal rows sat in a damaged page. The reset cannot
// delete them (the delete would meet the page and fail the whole commit), so it marks how far they go (a `meta` row
// `journal_forgotten:<key>`: the highest journal seq then) and the file for a rebuild, in the reset's own commit; the
// rebuild at the next start (salvage.ts) deletes the key's rows up to it, and the key's old journal does not come back.
import type Database from 'libsql'
import { isDamage } from './damage-error.ts'
import type { WriteOp } from './writer.ts'

const PREFIX = 'journal_forgotten:'

/** The keys whose journal sat in a damaged page: their rows are neither trimmed nor deleted until the rebuild. */
export class DamagedJournals {
  readonly #tenants = new Set<string>()

  has(tenant: string): boolean {
    return this.#tenants.has(tenant)
  }

  /** `read()` of a key's journal: a key whose journal meets a damaged page is noted, the error thrown on. */
  read<T>(tenant: string, read: () => T): T {
    try {
      return read()
    } catch (error) {
      if (isDamage(error)) this.#tenants.add(tenant)
      throw error
    }
  }

  /**
   * Before a reset of the key deletes its journal: its rows are read (a key whose journal was never read back, its
   * first call being the reset); those in a damaged page are left to the rebuild. The marks for it, written with the
   * reset's deletes (a kill before they commit leaves the key's journal as it was): none when its journal reads whole.
   */
  reset(db: Database.Database, tenant: string): WriteOp[] {
    try {
      this.read(tenant, () =>
        db.prepare('SELECT sum(length(entry)) FROM journal WHERE tenant = ?').get(tenant),
      )
    } catch {
      // noted when damaged; any other failure is the delete's to meet
    }
    if (!this.#tenants.has(tenant)) return []
    // the rebuild at the next start deletes them (marked again: the reset may be what found the damage)
    const ops: WriteOp[] = [['meta', 'damaged', `the journal of a key reset while it was in a damaged page`]]
    try {
      const row = db.prepare('SELECT max(seq) AS seq FROM journal').get() as { seq: number | null }
      ops.push(['meta', PREFIX + tenant, String(row.seq ?? 0)])
    } catch {
      // the file's last journal page is damaged too: the key's old rows that can be read come back after the rebuild
    }
    return ops
  }
}

/** In the rebuilt file: the journal rows resets marked deleted, and the marks. */
export function forgetMarkedJournals(out: Database.Database): void {
  const marks = out.prepare('SELECT key, value FROM meta WHERE key LIKE ?').all(`${PREFIX}%`) as {
    key: string
    value: string
  }[]
  const forget = out.prepare('DELETE FROM journal WHERE tenant = ? AND seq <= ?')
  for (const { key, value } of marks) forget.run(key.slice(PREFIX.length), Number(value))
  out.prepare('DELETE FROM meta WHERE key LIKE ?').run(`${PREFIX}%`)
}
