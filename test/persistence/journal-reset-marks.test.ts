// A reset of a key whose journal sits in a damaged page of state.db: the marks for the rebuild (the key's rows to
// delete, the file to rebuild) go with the reset's own commit, none written before it (a kill before that commit leaves
// the key's journal as it was), and the rebuild is due even when the reset is what met the damage.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { DamagedJournals } from '../../src/persistence/salvage-journal.ts'
import { openStateDb } from '../../src/persistence/schema.ts'

const root = mkdtempSync(join(tmpdir(), 'sandbox-journal-reset-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

it('a reset that meets its key’s damaged journal returns the marks for its commit and writes none before it', () => {
  const path = join(root, 'state.db')
  const db = openStateDb(path)
  const add = db.prepare('INSERT INTO journal(tenant, entry) VALUES (?, ?)')
  // the victim's rows fill pages of their own, between other keys' rows
  for (let i = 0; i < 50; i++) add.run('other', `other-${i}-${'o'.repeat(200)}`)
  for (let i = 0; i < 50; i++) add.run('victim', `victim-${i}-${'v'.repeat(200)}`)
  for (let i = 0; i < 50; i++) add.run('later', `later-${i}-${'l'.repeat(200)}`)
  db.pragma('wal_checkpoint(TRUNCATE)')
  db.close()
  const bytes = readFileSync(path)
  const pageSize = bytes.readUInt16BE(16)
  const page = Math.floor(bytes.indexOf('victim-20-') / pageSize)
  expect(page).toBeGreaterThan(0)
  bytes.fill(0, page * pageSize, (page + 1) * pageSize)
  writeFileSync(path, bytes)

  const damaged = openStateDb(path)
  const journals = new DamagedJournals()
  const marks = journals.reset(damaged, 'victim')
  expect(journals.has('victim')).toBe(true)
  // nothing written outside the reset's commit
  expect(damaged.prepare('SELECT key FROM meta').all()).toEqual([])
  expect(marks).toEqual([
    ['meta', 'damaged', expect.any(String)],
    ['meta', 'journal_forgotten:victim', '150'],
  ])
  // a key whose journal reads whole needs no mark
  expect(journals.reset(damaged, 'later')).toEqual([])
  damaged.close()
})
