// The statements --state-dir runs at each revival, prepared once per connection (preparing WORLD_ROWS cost more than
// running it once its rows are found through an index). A libsql statement that failed fails every later call (a
// damaged page met by one key's read would fail every key's after it): one that throws is forgotten, and the next
// call prepares it again.
import type Database from 'libsql'

const prepared = new WeakMap<Database.Database, Map<string, Database.Statement>>()

/** `run` with `sql` prepared on `db` once (the same statement for each later call), prepared again after a failure. */
export function withStatement<T>(
  db: Database.Database,
  sql: string,
  run: (statement: Database.Statement) => T,
): T {
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
  try {
    return run(found)
  } catch (error) {
    statements.delete(sql)
    throw error
  }
}
