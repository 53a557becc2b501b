// The keys file stays the sandbox user's alone: one found readable by others (a copy put back, another volume's
// modes) is made 0600 again at the start, and the log says so.
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { KEYS_FILE, loadSandboxKeys } from './keys.ts'

const dir = mkdtempSync(join(tmpdir(), 'sandbox-keys-mode-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

it('makes a keys file others can read private again, keeping its keys, and says so', () => {
  const first = loadSandboxKeys({ stateDir: dir }, () => {})
  const path = join(dir, KEYS_FILE)
  chmodSync(path, 0o644)
  const logged: string[] = []
  const again = loadSandboxKeys({ stateDir: dir, exposed: true }, (m) => logged.push(m))
  // before: left readable by every user of the machine, silently
  expect(statSync(path).mode & 0o777).toBe(0o600)
  expect(again.roles).toEqual(first.roles)
  expect(logged.join('\n')).toMatch(/could be read by other users \(mode 644\)/)
  // a private one is read as it is, without a word
  const quiet: string[] = []
  loadSandboxKeys({ stateDir: dir }, (m) => quiet.push(m))
  expect(quiet).toEqual([])
})
