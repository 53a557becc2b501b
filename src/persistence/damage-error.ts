// --state-dir: how SQLite says a page of state.db is damaged.

/** Whether an error is SQLite's word for a damaged file (a page that is not what its parent says). */
export function isDamage(error: unknown): boolean {
  const code = String((error as { code?: unknown }).code ?? '')
  return (
    code.startsWith('SQLITE_CORRUPT') ||
    code.startsWith('SQLITE_NOTADB') ||
    code === 'SQLITE_IOERR_SHORT_READ'
  )
}
