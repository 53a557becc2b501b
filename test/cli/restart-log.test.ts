// The terminal log after a --state-dir restart prints what happens from this start on: the calls, events and
// webhook deliveries of the previous run come back into the key's journal (GET /__sandbox/journal shows them with
// their own times) but are not printed again as if they had just happened (README: "--state-dir <dir> (then a
// restart picks up where it stopped)").
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { root } from '../support/cli-sandbox.ts'

const dir = mkdtempSync(join(tmpdir(), 'sandbox-restart-log-'))
const running: ChildProcess[] = []
afterAll(async () => {
  for (const child of running) if (child.exitCode === null) child.kill('SIGKILL')
  rmSync(dir, { recursive: true, force: true })
})

async function start() {
  const child = spawn(
    process.execPath,
    ['bin/request-sandbox.mjs', '--port', '0', '--no-chain', '--state-dir', dir],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  running.push(child)
  let out = ''
  child.stdout.on('data', (c: Buffer) => {
    out += c
  })
  child.stderr.on('data', (c: Buffer) => {
    out += c
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL: ${out}`)), 60_000)
    child.stdout.on('data', () => {
      const match = /listening on (http:\/\/[\d.:]+)/.exec(out)
      if (match) {
        clearTimeout(timer)
        resolve(match[1]!)
      }
    })
    void exited.then((code) => reject(new Error(`exited ${code}: ${out}`)))
  })
  return {
    url,
    /** the log lines after the banner (each starts with a time) */
    log: () => out.split('\n').filter((line) => /^\d\d:\d\d:\d\d/.test(line)),
    async waitFor(pattern: RegExp) {
      for (let i = 0; i < 250 && !this.log().some((l) => pattern.test(l)); i++)
        await new Promise((r) => setTimeout(r, 20))
      return this.log()
    },
    async stop() {
      child.kill('SIGTERM')
      return exited
    },
  }
}

const call = (url: string, method: string, path: string, body?: unknown) =>
  fetch(`${url}${path}`, {
    method,
    headers: { 'x-api-key': 'restart-log', ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  })

describe('the terminal log after a --state-dir restart', () => {
  it('prints only what happens after the start, and the journal still has the old entries', async () => {
    const first = await start()
    const created = await call(first.url, 'POST', '/v2/request', {
      amount: '10',
      invoiceCurrency: 'FAU-sepolia',
      paymentCurrency: 'FAU-sepolia',
      payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
    })
    expect(created.status).toBe(201)
    const { requestId } = (await created.json()) as { requestId: string }
    expect(
      (await first.waitFor(/POST \/v2\/request/)).filter((l) => /POST +\/v2\/request 201/.test(l)),
    ).toHaveLength(1)
    expect(await first.stop()).toBe(0)

    const second = await start()
    // the key's first call brings its saved worlds and journal back
    expect((await call(second.url, 'GET', `/v2/request/${requestId}`)).status).toBe(200)
    const journal = await (await call(second.url, 'GET', '/__sandbox/journal')).json()
    expect(JSON.stringify(journal)).toContain('"POST"')
    const log = await second.waitFor(/GET +\/v2\/request\//)
    expect(log.filter((line) => /GET +\/v2\/request\//.test(line))).toHaveLength(1)
    // the first run's call was not printed again
    expect(log.filter((line) => /POST +\/v2\/request/.test(line))).toEqual([])
    expect(await second.stop()).toBe(0)
  }, 180_000)
})
