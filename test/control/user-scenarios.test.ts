// Scenarios from the user's folders (--scenarios <dir>): TypeScript and JSON files, repeatable data under
// --seed, names that cannot reach outside their folders, and the server-wide default (--scenario).
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { requestState } from '../../src/resources/requests/index.ts'
import { createSandbox, type Sandbox } from '../../src/sandbox.ts'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'

const userDir = fileURLToPath(new URL('../fixtures/user-scenarios/', import.meta.url))
const t = useTransports(newApiKey, { chain: false, scenarioDirs: [userDir] })
const scratch = mkdtempSync(join(tmpdir(), 'sandbox-scenarios-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describeTransports(
  'user scenarios through %s',
  () => t,
  (client) => {
    it('lists the TypeScript and JSON scenarios of --scenarios beside the built-in ones', async () => {
      const res = await client().call('GET', '/__sandbox/scenarios')
      const names = res.body.scenarios.map((s: { name: string }) => s.name)
      expect(names).toEqual(expect.arrayContaining(['team-invoices', 'json-invoices', 'slow']))
      const json = res.body.scenarios.find((s: { name: string }) => s.name === 'json-invoices')
      expect(Object.keys(json.creates)).toEqual([
        'rent',
        'rentPaymentReference',
        'deposit',
        'depositPaymentReference',
      ])
    })

    it('seeds a TypeScript scenario through the request model: its requests read back through the API', async () => {
      const apiKey = newApiKey()
      const headers = { 'x-sandbox-scenario': 'team-invoices' }
      const state = await client().call('GET', '/__sandbox/scenario', { apiKey, headers })
      expect(state.status).toBe(200)
      const read = await client().call('GET', `/v2/request/${state.body.ids.first}`, { apiKey, headers })
      expect(read.status).toBe(200)
      expect(read.body.customerInfo.email).toBe(state.body.ids.email)
      expect(read.body.reference).toMatch(/^INV-\d{6}$/)
      expect(requestState(t.sandbox.shared.tenants.peek(apiKey, 'team-invoices')!).requests.size).toBe(3)
    })

    it('seeds a JSON scenario and applies its rules', async () => {
      const apiKey = newApiKey()
      const put = await client().call('PUT', '/__sandbox/scenario', {
        apiKey,
        body: { scenario: 'json-invoices' },
      })
      expect(put.status).toBe(200)
      const rent = await client().call('GET', `/v1/request/${put.body.ids.rentPaymentReference}`, { apiKey })
      expect(rent.status).toBe(200)
      expect(rent.body.requestId).toBe(put.body.ids.rent)
      const limited = await client().call('GET', `/v2/request/${put.body.ids.deposit}`, { apiKey })
      expect(limited.status).toBe(429)
    })
  },
)

describe('scenario data under --seed', () => {
  const seeded = async (seed: number | undefined, key: string) => {
    const sandbox = await createSandbox({
      chain: false,
      scenarioDirs: [userDir],
      ...(seed === undefined ? {} : { seed }),
    })
    try {
      return (await sandbox.control.useScenario(key, 'team-invoices')).ids
    } finally {
      await sandbox.close()
    }
  }

  it('is the same run after run for the same seed and key: request ids, names, e-mails, addresses, wallets, salts', async () => {
    const first = await seeded(7, 'ci-key')
    const second = await seeded(7, 'ci-key')
    expect(first).toEqual(second)
    expect(first.first).toMatch(/^01[0-9a-f]{64}$/)
    expect(first.customer).toMatch(/\w+ \w+/)
    expect(first.salt).toMatch(/^[0-9a-f]{16}$/)
  })

  it('differs for another seed, another key, or no seed', async () => {
    const base = await seeded(7, 'ci-key')
    expect((await seeded(8, 'ci-key')).wallet).not.toBe(base.wallet)
    expect((await seeded(7, 'other-key')).wallet).not.toBe(base.wallet)
    expect((await seeded(undefined, 'ci-key')).wallet).not.toBe(base.wallet)
  })
})

describe('loading scenario folders', () => {
  const folder = (name: string, files: Record<string, string>) => {
    const dir = join(scratch, name)
    mkdirSync(dir)
    for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text)
    return dir
  }
  const scenario = (name: string, extra: object = {}) => JSON.stringify({ name, description: 'x', ...extra })

  it('refuses a file whose name is not the scenario name', async () => {
    const dir = folder('misnamed', { 'one.json': scenario('two') })
    await expect(createSandbox({ chain: false, scenarioDirs: [dir] })).rejects.toThrow(
      /declares "two": name the file two.json/,
    )
  })

  it('refuses a symlink that points outside the folder', async () => {
    const outside = folder('outside', { 'escape.json': scenario('escape') })
    const dir = folder('linked', {})
    symlinkSync(join(outside, 'escape.json'), join(dir, 'escape.json'))
    await expect(createSandbox({ chain: false, scenarioDirs: [dir] })).rejects.toThrow(/points outside/)
  })

  it('refuses invalid names, invalid rules and names that are already taken', async () => {
    const badName = folder('bad-name', { 'Bad_Name.json': scenario('Bad_Name') })
    await expect(createSandbox({ chain: false, scenarioDirs: [badName] })).rejects.toThrow(/lower-case words/)
    const badRules = folder('bad-rules', { 'odd.json': scenario('odd', { rules: { latencyMs: -1 } }) })
    await expect(createSandbox({ chain: false, scenarioDirs: [badRules] })).rejects.toThrow(/latencyMs/)
    const taken = folder('taken', { 'slow.json': scenario('slow') })
    await expect(createSandbox({ chain: false, scenarioDirs: [taken] })).rejects.toThrow(/already defined/)
  })

  it('ignores files that are not scenarios (README, tests, declarations)', async () => {
    const dir = folder('mixed', {
      'README.md': '# notes',
      'helper.test.ts': 'throw new Error("not loaded")',
      'types.d.ts': 'export {}',
      'ok.json': scenario('ok'),
    })
    const sandbox = await createSandbox({ chain: false, scenarioDirs: [dir] })
    expect(sandbox.control.scenarios().map((s) => s.name)).toContain('ok')
    await sandbox.close()
  })
})

describe('the server-wide default scenario (--scenario)', () => {
  let sandbox: Sandbox
  beforeAll(async () => {
    sandbox = await createSandbox({ chain: false, scenario: 'rate-limited' })
  })
  afterAll(async () => sandbox?.close())

  it('puts keys that chose nothing in it, and lets a key choose default', async () => {
    const call = (key: string) =>
      sandbox.dispatch({
        method: 'GET',
        path: '/v1/currencies',
        query: {},
        headers: { 'x-api-key': key },
        rawBody: undefined,
      })
    const key = newApiKey()
    expect((await call(key)).status).toBe(200)
    expect((await call(key)).status).toBe(200)
    expect((await call(key)).status).toBe(429)
    const other = newApiKey()
    await sandbox.control.useScenario(other, 'default')
    for (let i = 0; i < 3; i++) expect((await call(other)).status).toBe(200)
    expect(sandbox.control.scenarios()[0]!.name).toBe('default')
  })

  it('refuses to start with an unknown default', async () => {
    await expect(createSandbox({ chain: false, scenario: 'nope' })).rejects.toThrow(/Unknown scenario "nope"/)
  })
})
