// The keys file (sandbox-keys.json) under kill -9: a first start killed in the middle of writing it leaves no file
// or a whole one, never one cut short, and the next start comes up with keys it can keep.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { KEYS_FILE, loadSandboxKeys } from '../../src/sandbox/keys.ts'

const dir = mkdtempSync(join(tmpdir(), 'keys-kill-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

it('a start killed while it writes sandbox-keys.json leaves it absent, and the next start makes it whole', () => {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'test/support/keys-kill-child.ts', dir], {
    encoding: 'utf8',
    timeout: 60_000,
  })
  expect(run.signal, run.stderr).toBe('SIGKILL')
  // what the killed write left is its temporary file at most
  expect(existsSync(join(dir, KEYS_FILE))).toBe(false)
  const logged: string[] = []
  const keys = loadSandboxKeys({ stateDir: dir }, (m) => logged.push(m))
  expect(logged).toEqual([])
  expect(readFileSync(join(dir, KEYS_FILE), 'utf8')).toMatch(/^\{"format":1,"secret":"0x[0-9a-f]{64}"\}\n$/)
  expect(loadSandboxKeys({ stateDir: dir }, () => {}).roles.relayer.address).toBe(keys.roles.relayer.address)
  expect(readdirSync(dir).filter((n) => n.startsWith(`${KEYS_FILE}.corrupt`))).toEqual([])
  // the killed write's temporary file is gone too
  expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([])
}, 60_000)
