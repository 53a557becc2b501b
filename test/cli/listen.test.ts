// request-sandbox listen, run as a user runs it: the key's deliveries are pulled from the sandbox (which never
// connects to the app: it has no webhook registered) and posted to a local receiver, signed with the machine's
// listen secret that --print-secret prints, the same run after run; the app's answer is recorded by the sandbox.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, type CliSandbox, freshKey, runCli, spawnCli, startCliSandbox } from '../support/cli-sandbox.ts'
import { payerBody } from '../support/compliance.ts'
import { waitFor } from '../support/wait.ts'
import { startReceiver } from '../support/webhook-receiver.ts'

let sandbox: CliSandbox
const config = mkdtempSync(join(tmpdir(), 'listen-config-'))
const env = { XDG_CONFIG_HOME: config, SANDBOX_LISTEN_SECRET: '' }
beforeAll(async () => {
  sandbox = await startCliSandbox(['--no-chain'])
}, 90_000)
afterAll(async () => {
  await sandbox?.stop()
  rmSync(config, { recursive: true, force: true })
})

const until = (check: () => boolean, what: string) =>
  waitFor(() => (check() ? true : undefined), { timeoutMs: 15_000, intervalMs: 20, what })

const payer = (clientUserId: string) => payerBody({ clientUserId, email: clientUserId })

describe('request-sandbox listen', () => {
  it('documents its flags and exit codes, and needs --forward-to', async () => {
    const help = await runCli(['listen', '--help'])
    expect(help.code).toBe(0)
    for (const flag of [
      '--forward-to',
      '--events',
      '--print-secret',
      '--secret',
      '--json',
      '--key',
      '--base',
    ])
      expect(help.stdout).toContain(flag)
    expect(help.stdout).toMatch(/Exit codes/)
    const missing = await runCli(['listen', '--key', 'k', '--base', sandbox.url], env)
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('--forward-to')
  })

  it('prints the same secret on every run, and signs the forwarded deliveries with it', async () => {
    const key = freshKey('listen')
    const first = await runCli(['listen', '--key', key, '--print-secret'], env)
    const second = await runCli(['listen', '--key', key, '--print-secret'], env)
    expect(first.code).toBe(0)
    expect(first.stdout).toMatch(/^[0-9a-f]{64}\n$/)
    expect(second.stdout).toBe(first.stdout)
    const receiver = await startReceiver()
    receiver.secret = first.stdout.trim()
    // the first answer fails: the sandbox retries through the listener as it retries any receiver
    receiver.script = [500]
    const listener = spawnCli(
      [
        'listen',
        '--key',
        key,
        '--base',
        sandbox.url,
        '--forward-to',
        receiver.url,
        '--events',
        'compliance.updated',
      ],
      env,
    )
    try {
      await until(() => listener.state.stderr.includes('Ready'), 'listen to be ready')
      expect((await api(sandbox.url, key, 'POST', '/v2/payer', payer('ann@example.com'))).status).toBe(200)
      const [failed, retried] = await receiver.waitFor(2)
      for (const got of [failed!, retried!]) {
        expect(got.signatureValid).toBe(true)
        expect(got.body).toMatchObject({ event: 'compliance.updated', clientUserId: 'ann@example.com' })
      }
      expect(retried!.headers['x-request-network-delivery']).toBe(
        failed!.headers['x-request-network-delivery'],
      )
      expect(retried!.headers['x-request-network-retry-count']).toBe('1')
      await until(() => listener.state.stdout.includes('[200]'), 'the line of the retry')
      expect(listener.state.stdout).toMatch(/compliance\.updated \w+ -> \[500\] POST/)
      expect(listener.state.stdout).toMatch(/compliance\.updated \w+ retry=1 -> \[200\] POST/)
      // the sandbox recorded the app's answers; it has no webhook of the key to call itself
      const deliveries = await api(sandbox.url, key, 'GET', '/__sandbox/webhooks/deliveries')
      expect(deliveries.body).toHaveLength(1)
      const [delivery] = deliveries.body
      expect(delivery.url).toMatch(/^listen:\/\//)
      expect(delivery.state).toBe('delivered')
      expect(delivery.attempts.map((a: { status: number }) => a.status)).toEqual([500, 200])
      expect(delivery.attempts[1].response.body).toBe('{"success":true}')
      expect(delivery.attempts[1].response.headers['content-type']).toBe('application/json')
      expect((await api(sandbox.url, key, 'GET', '/v2/webhook')).body).toEqual([])
    } finally {
      await listener.stop()
      await receiver.close()
    }
  }, 30_000)

  it('forwards only the chosen events, and reports an app that cannot be reached', async () => {
    const key = freshKey('listen')
    // a port that was free a moment ago: nothing listens there
    const closed = await startReceiver()
    const nowhere = closed.url
    await closed.close()
    const listener = spawnCli(
      [
        'listen',
        '--key',
        key,
        '--base',
        sandbox.url,
        '--forward-to',
        nowhere,
        '--events',
        'payment_detail.updated',
        '--json',
      ],
      env,
    )
    try {
      await until(() => listener.state.stderr.includes('Ready'), 'listen to be ready')
      // a payer (compliance.updated) with bank details (payment_detail.updated), made by the trigger route
      const made = await api(sandbox.url, key, 'POST', '/__sandbox/trigger', {
        event: 'payment_detail.updated',
      })
      expect(made.status).toBe(201)
      await until(() => listener.state.stdout.includes('\n'), 'a delivery line')
      const line = JSON.parse(listener.state.stdout.split('\n')[0]!)
      expect(line).toMatchObject({ event: 'payment_detail.updated', status: null, error: 'ECONNREFUSED' })
      expect(listener.state.stdout).not.toContain('compliance.updated')
    } finally {
      await listener.stop()
    }
  }, 30_000)

  it('allows 10 listen clients per key: the 11th answers 429, and one that stops frees its place', async () => {
    const key = freshKey('listen-cap')
    const open = async () => {
      const stop = new AbortController()
      const response = await fetch(`${sandbox.url}/__sandbox/webhooks/listen`, {
        headers: { 'x-api-key': key },
        signal: stop.signal,
      })
      return { response, stop }
    }
    const streams = []
    for (let i = 0; i < 10; i++) {
      const stream = await open()
      expect(stream.response.status).toBe(200)
      // the stream is open once its ready event came
      const reader = stream.response.body!.getReader()
      expect(new TextDecoder().decode((await reader.read()).value)).toContain('ready')
      streams.push(stream)
    }
    const over = await open()
    expect(over.response.status).toBe(429)
    expect(await over.response.text()).toContain('at most 10 listen clients')
    streams.pop()!.stop.abort()
    await waitFor(
      async () => {
        const again = await open()
        if (again.response.status !== 200) return undefined
        again.stop.abort()
        return true
      },
      { timeoutMs: 10_000, what: 'a freed listen place' },
    )
    for (const stream of streams) stream.stop.abort()
  }, 30_000)
})
