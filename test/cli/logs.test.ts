// request-sandbox logs tail, run as a user runs it: it follows a key's calls and events as they happen, filtered
// by status class and path, as text or JSON lines, and ends cleanly on Ctrl-C (SIGINT).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, type CliSandbox, freshKey, runCli, spawnCli, startCliSandbox } from '../support/cli-sandbox.ts'
import { payerBody } from '../support/compliance.ts'
import { waitFor } from '../support/wait.ts'

let sandbox: CliSandbox
beforeAll(async () => {
  sandbox = await startCliSandbox(['--no-chain'])
}, 90_000)
afterAll(() => sandbox?.stop())

const until = (check: () => boolean, what: string) =>
  waitFor(() => (check() ? true : undefined), { timeoutMs: 15_000, intervalMs: 20, what })

describe('request-sandbox logs tail', () => {
  it('documents its flags and exit codes, and refuses a bad filter with 2', async () => {
    const help = await runCli(['logs', '--help'])
    expect(help.code).toBe(0)
    for (const flag of ['tail', '--status', '--path', '--type', '--json', '--key', '--base'])
      expect(help.stdout).toContain(flag)
    expect(help.stdout).toMatch(/Exit codes/)
    const bad = await runCli(['logs', 'tail', '--key', 'k', '--base', sandbox.url, '--status', '4zz'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--status')
  })

  it('prints only the failed calls under a path as they happen, and stops on Ctrl-C', async () => {
    const key = freshKey('logs')
    const tail = spawnCli([
      'logs',
      'tail',
      '--key',
      key,
      '--base',
      sandbox.url,
      '--status',
      '4xx',
      '--path',
      '/v2/request',
    ])
    try {
      await until(() => tail.state.stderr.includes('Tailing'), 'the tail to start')
      await api(sandbox.url, key, 'GET', '/v2/currencies?network=sepolia') // 200, other path
      const ok = await api(sandbox.url, key, 'POST', '/v2/request', {
        amount: '10',
        invoiceCurrency: 'FAU-sepolia',
        paymentCurrency: 'FAU-sepolia',
        payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
      })
      expect(ok.status).toBe(201)
      const missing = await api(sandbox.url, key, 'GET', `/v2/request/${'0'.repeat(66)}`)
      expect(missing.status).toBe(404)
      // another key's failure never shows
      await api(sandbox.url, freshKey('other'), 'GET', `/v2/request/${'1'.repeat(66)}`)
      await until(() => tail.state.stdout.includes(' 404 '), 'the 404 line')
      const lines = tail.state.stdout.trim().split('\n')
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatch(new RegExp(`GET /v2/request/${'0'.repeat(66)} 404 \\d+ms`))
      // --last prints what was recorded before it started; --max ends it
      const backlog = await runCli([
        'logs',
        'tail',
        '--key',
        key,
        '--base',
        sandbox.url,
        '--status',
        '404',
        '--last',
        '5',
        '--max',
        '1',
        '-q',
      ])
      expect(backlog).toMatchObject({ code: 0, stderr: '' })
      expect(backlog.stdout).toBe(`${lines[0]}\n`)
      tail.child.kill('SIGINT')
      const code = await new Promise((resolve) => tail.child.once('exit', resolve))
      expect(code).toBe(0)
    } finally {
      await tail.stop()
    }
  }, 30_000)

  it('prints JSON lines of events with --json --type event', async () => {
    const key = freshKey('logs')
    const tail = spawnCli(['logs', 'tail', '--key', key, '--base', sandbox.url, '--json', '--type', 'event'])
    try {
      await until(() => tail.state.stderr.includes('Tailing'), 'the tail to start')
      await api(
        sandbox.url,
        key,
        'POST',
        '/v2/payer',
        payerBody({ clientUserId: 'ann@example.com', email: 'ann@example.com' }),
      )
      await until(() => tail.state.stdout.includes('\n'), 'an event line')
      const entry = JSON.parse(tail.state.stdout.split('\n')[0]!)
      expect(entry).toMatchObject({ type: 'event', event: 'compliance.updated' })
      expect(entry.payload.clientUserId).toBe('ann@example.com')
      expect(tail.state.stdout).not.toContain('"type":"call"')
    } finally {
      await tail.stop()
    }
  }, 30_000)
})
