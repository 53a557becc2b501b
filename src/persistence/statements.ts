// The statements --state-dir runs at each revival, prepared once per connection (preparing WORLD_ROWS cost more than
// running it once its rows are found through an index).
import type Database from 'libsql'

const prepared = new WeakMap<Database.Database, Map<string, Database.Statement>>()

/** `sql` prepared on `db`, once: the same statement for each later call with the same text. */
export function statement(db: Database.Database, sql: string): Database.Statement {
  let statements = prepared.get(db)
  if (!statements) {
    statements = new Map()
    prepared.set(db, statements)
  }
  let found = statements.get(sql)
  if (!found) {
    found = db.prepare(sql)
    statements.set(sql, found)
  }
  return found
}
