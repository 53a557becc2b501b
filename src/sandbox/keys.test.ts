// Where the sandbox's keys come from: the state dir's file (made once, 0600), the seed on a loopback listener only,
// the CSPRNG otherwise; a state dir of an earlier version keeps the published roles its chain belongs to (logged).
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { keccak256, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, expect, it } from 'vitest'
import { KEYS_FILE, loadSandboxKeys } from './keys.ts'

const dirs: string[] = []
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-keys-unit-'))
  dirs.push(dir)
  return dir
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})
const published = (role: string) => privateKeyToAccount(keccak256(toHex(`request-sandbox:${role}`))).address
const quiet = () => {}

it('makes the keys file once (mode 0600) and reads the same keys back', () => {
  const dir = tempDir()
  const first = loadSandboxKeys({ stateDir: dir }, quiet)
  expect(statSync(join(dir, KEYS_FILE)).mode & 0o777).toBe(0o600)
  const again = loadSandboxKeys({ stateDir: dir }, quiet)
  expect(again.roles).toEqual(first.roles)
  expect(again.derive('test-wallet:k').address).toBe(first.derive('test-wallet:k').address)
  expect(first.roles.deployer.address).not.toBe(published('deployer'))
  // the file holds the secret, not the role keys
  const file = readFileSync(join(dir, KEYS_FILE), 'utf8')
  expect(file).not.toContain(first.roles.deployer.privateKey.slice(2))
})

it('derives from --seed on a loopback listener only; fresh keys otherwise', () => {
  const a = loadSandboxKeys({ seed: 7 }, quiet)
  const b = loadSandboxKeys({ seed: 7 }, quiet)
  expect(a.roles.operator.address).toBe(b.roles.operator.address)
  expect(loadSandboxKeys({ seed: 7, exposed: true }, quiet).roles.operator.address).not.toBe(
    a.roles.operator.address,
  )
  expect(loadSandboxKeys({}, quiet).roles.operator.address).not.toBe(
    loadSandboxKeys({}, quiet).roles.operator.address,
  )
})

it('keeps the published roles for a state dir an earlier version made, and says so', () => {
  const dir = tempDir()
  writeFileSync(join(dir, 'state.db'), '')
  const logged: string[] = []
  const keys = loadSandboxKeys({ stateDir: dir }, (m) => logged.push(m))
  expect(keys.roles.deployer.address).toBe(published('deployer'))
  expect(logged.join('\n')).toMatch(/earlier version.*published role keys/)
  // its test wallets are secret all the same
  expect(keys.derive('test-wallet:k').address).not.toBe(
    loadSandboxKeys({}, quiet).derive('test-wallet:k').address,
  )
})

it('refuses such a state dir on a shared listener, where strangers could sign as its roles', () => {
  const dir = tempDir()
  writeFileSync(join(dir, 'state.db'), '')
  expect(() => loadSandboxKeys({ stateDir: dir, exposed: true }, quiet)).toThrow(
    /published role keys.*A shared listener refuses it: start the shared demo with an empty --state-dir/,
  )
  // and again once the keys file records it
  loadSandboxKeys({ stateDir: dir }, quiet)
  expect(() => loadSandboxKeys({ stateDir: dir, exposed: true }, quiet)).toThrow(
    /A shared listener refuses it/,
  )
  expect(loadSandboxKeys({ stateDir: dir }, quiet).roles.deployer.address).toBe(published('deployer'))
})

it('refuses a keys file that is not one beside state made with it, naming it', () => {
  const dir = tempDir()
  writeFileSync(join(dir, KEYS_FILE), '{"format":1,"secret":"nope"}')
  writeFileSync(join(dir, 'claims.json'), '{"format":1,"claims":[]}')
  expect(() => loadSandboxKeys({ stateDir: dir }, quiet)).toThrow(
    /sandbox-keys\.json is not the sandbox's keys file/,
  )
})

it('refuses on a shared listener a state dir whose keys came from --seed (anyone guessing the seed signs as its roles)', () => {
  const dir = tempDir()
  const seeded = loadSandboxKeys({ stateDir: dir, seed: 1 }, quiet)
  expect(seeded.roles.deployer.address).toBe(loadSandboxKeys({ seed: 1 }, quiet).roles.deployer.address)
  expect(() => loadSandboxKeys({ stateDir: dir, exposed: true }, quiet)).toThrow(
    /--seed.*A shared listener refuses it: start the shared demo with an empty --state-dir/,
  )
  // a loopback listener keeps serving it, with the same keys
  expect(loadSandboxKeys({ stateDir: dir }, quiet).roles.deployer.address).toBe(seeded.roles.deployer.address)
})

it('a keys file cut short (a start killed while writing it) with nothing made from it: set aside, new keys, logged', () => {
  for (const partial of ['', '{"format":1,"secret":"0x12']) {
    const dir = tempDir()
    writeFileSync(join(dir, KEYS_FILE), partial)
    const logged: string[] = []
    const keys = loadSandboxKeys({ stateDir: dir }, (m) => logged.push(m))
    expect(logged.join('\n')).toMatch(
      /sandbox-keys\.json (is empty|is not the sandbox's keys file).*new keys/,
    )
    // the new file is whole, the old one kept beside it, no temporary file left
    const names = readdirSync(dir)
    expect(names.filter((n) => n.startsWith(`${KEYS_FILE}.corrupt-`))).toHaveLength(1)
    expect(names.filter((n) => n.endsWith('.tmp'))).toEqual([])
    expect(readFileSync(join(dir, KEYS_FILE), 'utf8')).toMatch(/"secret":"0x[0-9a-f]{64}"/)
    expect(loadSandboxKeys({ stateDir: dir }, quiet).roles.deployer.address).toBe(keys.roles.deployer.address)
  }
})

it('a keys file cut short beside state made with its secret: the start stops, naming the file and what to do', () => {
  const dir = tempDir()
  writeFileSync(join(dir, KEYS_FILE), '')
  writeFileSync(join(dir, 'state.db'), '')
  expect(() => loadSandboxKeys({ stateDir: dir }, quiet)).toThrow(
    /sandbox-keys\.json is empty, and .* holds state made with its secret \(state\.db\): put sandbox-keys\.json back from a copy .*or start with an empty --state-dir/,
  )
  // nothing was replaced: a copy put back is read as it is
  expect(readFileSync(join(dir, KEYS_FILE), 'utf8')).toBe('')
})
