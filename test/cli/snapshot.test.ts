// Named snapshots as a user takes them: `request-sandbox snapshot save|load|ls|rm` against a sandbox started with
// --state-dir (a child process). Loading rewinds one key's requests and payments, leaves other keys alone, and the
// snapshots are files of the state dir that a restarted sandbox still has.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, type CliSandbox, freshKey, runCli, startCliSandbox } from '../support/cli-sandbox.ts'

const stateDir = mkdtempSync(join(tmpdir(), 'snapshot-state-'))
let sandbox: CliSandbox
beforeAll(async () => {
  sandbox = await startCliSandbox(['--state-dir', stateDir])
}, 90_000)
afterAll(async () => {
  await sandbox?.stop()
  rmSync(stateDir, { recursive: true, force: true })
})

const cli = (key: string, ...args: string[]) =>
  runCli(['snapshot', ...args, '--base', sandbox.url, '--key', key])
const request = (key: string, reference: string) =>
  api(sandbox.url, key, 'POST', '/v2/request', {
    amount: '10',
    invoiceCurrency: 'FAU-sepolia',
    paymentCurrency: 'FAU-sepolia',
    payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
    reference,
  })
const pay = async (key: string, requestId: string) => {
  const paid = await runCli([
    'trigger',
    'payment.confirmed',
    '--request',
    requestId,
    '--base',
    sandbox.url,
    '--key',
    key,
  ])
  expect(paid.code, paid.stderr).toBe(0)
}

describe('request-sandbox snapshot', () => {
  it('documents its commands and exit codes, and refuses a bad name', async () => {
    const help = await runCli(['snapshot', '--help'])
    expect(help.code).toBe(0)
    for (const word of ['save', 'load', 'ls', 'rm', '--json', '--key', '--base', '--state-dir'])
      expect(help.stdout).toContain(word)
    expect(help.stdout).toMatch(/Exit codes/)
    expect((await runCli(['snapshot', 'save', '--key', 'k', '--base', sandbox.url])).code).toBe(2)
    const bad = await cli(freshKey('snap'), 'save', '../etc')
    expect(bad.code).toBe(1)
    expect(bad.stderr).toContain('400')
  })

  it("rewinds one key's requests and payments, and leaves another key's alone", async () => {
    const key = freshKey('snap')
    const other = freshKey('other')
    const before = (await request(key, 'BEFORE')).body.requestId
    const saved = await cli(key, 'save', 'before-payment')
    expect(saved.code, saved.stderr).toBe(0)
    expect(saved.stdout).toMatch(/^saved before-payment /)
    await pay(key, before)
    const after = (await request(key, 'AFTER')).body.requestId
    const theirs = (await request(other, 'THEIRS')).body.requestId
    await pay(other, theirs)
    expect((await api(sandbox.url, key, 'GET', `/v2/request/${before}`)).body).toMatchObject({
      hasBeenPaid: true,
    })

    const loaded = await cli(key, 'load', 'before-payment')
    expect(loaded.code, loaded.stderr).toBe(0)
    // the payment-reference index follows from the requests: not in the file, rebuilt on load
    const file = join(
      stateDir,
      'snapshots',
      createHash('sha256').update(key).digest('hex').slice(0, 32),
      'before-payment.json',
    )
    expect(readFileSync(file, 'utf8')).not.toContain('requestsByReference')
    const reference = (await api(sandbox.url, key, 'GET', `/v2/request/${before}`)).body.paymentReference
    expect((await api(sandbox.url, key, 'GET', `/v1/request/${reference}/pay`)).status).toBe(200)
    const rewound = await api(sandbox.url, key, 'GET', `/v2/request/${before}`)
    expect(rewound.body).toMatchObject({ hasBeenPaid: false, status: 'pending', payments: [] })
    expect((await api(sandbox.url, key, 'GET', `/v2/request/${after}`)).status).toBe(404)
    expect((await api(sandbox.url, other, 'GET', `/v2/request/${theirs}`)).body).toMatchObject({
      hasBeenPaid: true,
    })
    // the rewound request is paid again, on the chain, like any unpaid one
    await pay(key, before)
    const repaid = await api(sandbox.url, key, 'GET', `/v2/request/${before}`)
    expect(repaid.body).toMatchObject({ hasBeenPaid: true })
    expect(repaid.body.payments).toHaveLength(1)
  }, 90_000)

  it('lists and deletes snapshots; a missing one answers 404 (exit 1)', async () => {
    const key = freshKey('snap')
    await request(key, 'ONE')
    expect((await api(sandbox.url, key, 'POST', '/__sandbox/snapshots', { name: 'one' })).status).toBe(201)
    expect((await api(sandbox.url, key, 'POST', '/__sandbox/snapshots', { name: 'two' })).status).toBe(201)
    const listed = JSON.parse((await cli(key, 'ls', '--json')).stdout)
    expect(listed.map((s: { name: string }) => s.name)).toEqual(['one', 'two'])
    expect(listed[0].worlds[0]).toMatchObject({ scenario: 'default' })
    expect(listed[0].worlds[0].records).toBeGreaterThan(0)
    expect((await cli(key, 'rm', 'one')).stdout).toBe('deleted one\n')
    expect((await cli(key, 'ls')).stdout).toMatch(/^two /)
    const missing = await cli(key, 'load', 'one')
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('404')
    expect((await api(sandbox.url, key, 'DELETE', '/__sandbox/snapshots/one')).status).toBe(404)
    // another key sees none of them
    expect((await cli(freshKey('snap'), 'ls')).stdout).toBe('no snapshots\n')
  }, 30_000)

  it('names a damaged snapshot file with 409 on restore and in the list; the key and its other snapshots are unaffected', async () => {
    const key = freshKey('snap-damaged')
    const kept = (await request(key, 'KEPT')).body.requestId
    for (const name of ['good', 'cut', 'refused'])
      expect((await api(sandbox.url, key, 'POST', '/__sandbox/snapshots', { name })).status).toBe(201)
    const file = (name: string) =>
      join(stateDir, 'snapshots', createHash('sha256').update(key).digest('hex').slice(0, 32), `${name}.json`)
    // a file cut short (a disk full, an editor), and one whose JSON is whole but holds a record no table takes
    const text = readFileSync(file('cut'), 'utf8')
    writeFileSync(file('cut'), text.slice(0, text.length / 2))
    const refused = JSON.parse(readFileSync(file('refused'), 'utf8'))
    const tables = refused.worlds[0].tables as Record<string, unknown[]>
    const table = Object.keys(tables).find((name) => tables[name]!.length > 0)!
    tables[table]![0] = { not: 'a record' }
    writeFileSync(file('refused'), JSON.stringify(refused))
    const later = (await request(key, 'LATER')).body.requestId

    const listed = await api(sandbox.url, key, 'GET', '/__sandbox/snapshots')
    expect(listed.status).toBe(200)
    expect(listed.body.snapshots.map((s: { name: string }) => s.name).sort()).toEqual(['good', 'refused'])
    expect(listed.body.damaged).toEqual([{ name: 'cut', problem: expect.stringMatching(/not valid JSON/) }])
    const ls = await cli(key, 'ls')
    expect(ls.code).toBe(0)
    expect(ls.stderr).toMatch(/snapshot cut is damaged/)

    for (const name of ['cut', 'refused']) {
      const restore = await api(sandbox.url, key, 'POST', `/__sandbox/snapshots/${name}/restore`)
      expect(restore.status, JSON.stringify(restore.body)).toBe(409)
      expect(restore.body).toMatchObject({ statusCode: 409, error: 'Conflict' })
      expect(restore.body.message).toContain(`Snapshot ${name} is damaged`)
      expect(restore.body.message).toContain(`snapshot rm ${name}`)
      // the key keeps what it had
      expect((await api(sandbox.url, key, 'GET', `/v2/request/${later}`)).status).toBe(200)
    }
    expect((await api(sandbox.url, key, 'POST', '/__sandbox/snapshots/good/restore')).status).toBe(200)
    expect((await api(sandbox.url, key, 'GET', `/v2/request/${kept}`)).status).toBe(200)
    expect((await api(sandbox.url, key, 'GET', `/v2/request/${later}`)).status).toBe(404)
    expect((await api(sandbox.url, key, 'DELETE', '/__sandbox/snapshots/cut')).status).toBe(200)
  }, 30_000)

  it('names a snapshot file that cannot be read at all (a folder in its place) as damaged: 200 list, 409 restore, never 500', async () => {
    const key = freshKey('snap-unreadable')
    expect((await api(sandbox.url, key, 'POST', '/__sandbox/snapshots', { name: 'fine' })).status).toBe(201)
    const dir = join(stateDir, 'snapshots', createHash('sha256').update(key).digest('hex').slice(0, 32))
    mkdirSync(join(dir, 'folder.json'))
    const listed = await api(sandbox.url, key, 'GET', '/__sandbox/snapshots')
    expect(listed.status, JSON.stringify(listed.body)).toBe(200)
    expect(listed.body.snapshots.map((s: { name: string }) => s.name)).toEqual(['fine'])
    expect(listed.body.damaged).toEqual([
      { name: 'folder', problem: expect.stringMatching(/cannot be read/) },
    ])
    const restore = await api(sandbox.url, key, 'POST', '/__sandbox/snapshots/folder/restore')
    expect(restore.status, JSON.stringify(restore.body)).toBe(409)
    expect(restore.body.message).toContain('Snapshot folder is damaged')
    // and it goes as its message says
    expect((await api(sandbox.url, key, 'DELETE', '/__sandbox/snapshots/folder')).status).toBe(200)
    expect((await api(sandbox.url, key, 'GET', '/__sandbox/snapshots')).body.damaged).toEqual([])
  }, 30_000)

  it('keeps at most 50 snapshots per key: the 51st name answers 507 naming --max-snapshots, an existing name is still replaced', async () => {
    const key = freshKey('snap-cap')
    for (let i = 0; i < 50; i++)
      expect((await api(sandbox.url, key, 'POST', '/__sandbox/snapshots', { name: `s${i}` })).status).toBe(
        201,
      )
    const over = await api(sandbox.url, key, 'POST', '/__sandbox/snapshots', { name: 's50' })
    expect(over.status).toBe(507)
    expect(over.body).toMatchObject({ statusCode: 507, error: 'Insufficient Storage' })
    expect(over.body.message).toContain('at most 50 snapshots')
    expect(over.body.message).toContain('--max-snapshots')
    expect((await api(sandbox.url, key, 'POST', '/__sandbox/snapshots', { name: 's7' })).status).toBe(201)
    expect((await api(sandbox.url, key, 'GET', '/__sandbox/snapshots')).body.snapshots).toHaveLength(50)
  }, 60_000)

  it('keeps snapshots as files of the state dir, across a restart', async () => {
    const key = freshKey('snap')
    const kept = (await request(key, 'KEPT')).body.requestId
    expect((await cli(key, 'save', 'kept')).code).toBe(0)
    const files = readdirSync(join(stateDir, 'snapshots')).flatMap((d) =>
      readdirSync(join(stateDir, 'snapshots', d)),
    )
    expect(files).toContain('kept.json')
    await sandbox.stop()
    sandbox = await startCliSandbox(['--state-dir', stateDir])
    expect((await cli(key, 'ls')).stdout).toMatch(/^kept /)
    await api(sandbox.url, key, 'POST', '/__sandbox/reset')
    expect((await api(sandbox.url, key, 'GET', `/v2/request/${kept}`)).status).toBe(404)
    expect((await cli(key, 'load', 'kept')).code).toBe(0)
    expect((await api(sandbox.url, key, 'GET', `/v2/request/${kept}`)).body).toMatchObject({
      reference: 'KEPT',
    })
    expect(existsSync(join(stateDir, 'state.db'))).toBe(true)
  }, 90_000)
})
