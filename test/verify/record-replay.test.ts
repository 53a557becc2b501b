// verify --record writes both sides of every call as HAR 1.2 with every credential masked; verify --replay compares
// such a recording with a sandbox offline: the same answers find nothing, a doctored recording finds its change.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { type RunningServer, startServer } from '../../src/index.ts'
import { type VerifyReport, verify } from '../../src/verify/index.ts'

let server: RunningServer
const dir = mkdtempSync(join(tmpdir(), 'verify-record-'))
const webhookUrl = 'http://127.0.0.1:9/verify-hook'
const realKey = `rn_record_real_${Math.random().toString(36).slice(2, 12)}`
const sandboxKey = `rn_record_sandbox_${Math.random().toString(36).slice(2, 12)}`

beforeAll(async () => {
  server = await startServer({ chain: false })
})
afterAll(async () => {
  await server?.close()
  rmSync(dir, { recursive: true, force: true })
})

async function run(args: string[]): Promise<{ code: number; stdout: string }> {
  let stdout = ''
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk)
    return true
  })
  try {
    return { code: await verify([...args, '--rate', '100']), stdout }
  } finally {
    spy.mockRestore()
  }
}

interface HarDoc {
  log: {
    version: string
    entries: {
      request: { method: string; url: string; headers: { name: string; value: string }[] }
      response: { status: number; content: { text: string } }
      _flow: string
      _step: string
    }[]
  }
}

describe('verify --record and --replay', () => {
  const recording = join(dir, 'run')

  it('records both sides as HAR 1.2 with no credential in them', async () => {
    const { code } = await run([
      '--against',
      server.url,
      '--key',
      realKey,
      '--sandbox',
      server.url,
      '--sandbox-key',
      sandboxKey,
      '--webhook-url',
      webhookUrl,
      '--record',
      recording,
    ])
    expect(code).toBe(0)
    for (const side of ['real', 'sandbox']) {
      const text = readFileSync(join(recording, `${side}.har`), 'utf8')
      expect(text).not.toContain(realKey)
      expect(text).not.toContain(sandboxKey)
      const har = JSON.parse(text) as HarDoc
      expect(har.log.version).toBe('1.2')
      expect(har.log.entries.length).toBeGreaterThan(25)
      const keyed = har.log.entries.flatMap((e) => e.request.headers.filter((h) => h.name === 'x-api-key'))
      expect(keyed.length).toBeGreaterThan(20)
      expect(new Set(keyed.map((h) => h.value))).toEqual(new Set(['[masked]']))
      // the webhook's signing secret is in the create answer: masked too
      const hook = har.log.entries.find((e) => e._flow === 'webhooks' && e._step === 'create')!
      expect(hook.response.status).toBe(201)
      const secret = (JSON.parse(hook.response.content.text) as { secret?: string }).secret
      expect(secret).toMatch(/^[0a]{64}$/)
    }
    // the client IDs flow's ids are objects, not credentials of the run: kept (fixtures import reads them)
    const real = JSON.parse(readFileSync(join(recording, 'real.har'), 'utf8')) as HarDoc
    const created = real.log.entries.find((e) => e._flow === 'client-ids' && e._step === 'create')!
    expect(JSON.parse(created.response.content.text).clientId).toMatch(/^[\w-]{8,}$/)
  })

  it('masks a client ID used as the credential of the run', async () => {
    const made = await fetch(`${server.url}/v2/client-ids`, {
      method: 'POST',
      headers: { 'x-api-key': realKey, 'content-type': 'application/json' },
      body: JSON.stringify({ label: 'record', allowedDomains: ['https://app.record.test'] }),
    })
    const { clientId } = (await made.json()) as { clientId: string }
    const out = join(dir, 'client-id')
    const { code } = await run([
      '--against',
      server.url,
      '--client-id',
      clientId,
      '--origin',
      'https://app.record.test',
      '--sandbox',
      server.url,
      '--record',
      out,
    ])
    expect(code).toBe(0)
    const text = readFileSync(join(out, 'real.har'), 'utf8')
    expect(text).not.toContain(clientId)
    expect(text).toContain('"x-client-id"')
    // and its replay authenticates the sandbox side with a client ID too (the flows needing a key stay skipped)
    const replayed = await run(['--replay', out, '--sandbox', server.url])
    expect(replayed.stdout).toContain('no difference')
    expect(replayed.code).toBe(0)
  })

  it('replays the recording against a sandbox offline and finds no difference', async () => {
    const report = join(dir, 'replay')
    const { code, stdout } = await run(['--replay', recording, '--sandbox', server.url, '--report', report])
    expect(stdout).toContain('no difference')
    expect(code).toBe(0)
    const json = JSON.parse(readFileSync(`${report}.json`, 'utf8')) as VerifyReport
    expect(json.real).toContain('real.har')
    expect(json.flows.filter((f) => f.skipped)).toEqual([])
    expect(json.flows.flatMap((f) => f.steps).filter((s) => s.real === undefined)).toEqual([])
  })

  it('finds what a doctored recording changed, and exits 1', async () => {
    const file = join(recording, 'real.har')
    const har = JSON.parse(readFileSync(file, 'utf8')) as HarDoc
    const get = har.log.entries.find((e) => e._flow === 'request' && e._step === 'get')!
    const body = JSON.parse(get.response.content.text) as Record<string, unknown>
    body.hasBeenPaid = 'no'
    get.response.content.text = JSON.stringify(body)
    const doctored = join(dir, 'doctored.har')
    writeFileSync(doctored, JSON.stringify(har))
    const report = join(dir, 'doctored-report')
    const { code } = await run(['--replay', doctored, '--sandbox', server.url, '--report', report])
    expect(code).toBe(1)
    const json = JSON.parse(readFileSync(`${report}.json`, 'utf8')) as VerifyReport
    expect(json.differences.map((d) => [d.operation, d.kind, d.path])).toEqual([
      ['GET /v2/request/{requestId}', 'type', '$.hasBeenPaid'],
    ])
  })

  it('refuses a call the recording lacks, and a file that is not HAR, with a clear error', async () => {
    const partial = join(dir, 'partial.har')
    const har = JSON.parse(readFileSync(join(recording, 'real.har'), 'utf8')) as HarDoc
    const routes = har.log.entries.find((e) => e._flow === 'request' && e._step === 'routes')!
    routes.request.url = routes.request.url.replace('wallet=', 'wallet=0x1')
    writeFileSync(partial, JSON.stringify(har))
    const report = join(dir, 'partial-report')
    const { code } = await run([
      '--replay',
      partial,
      '--sandbox',
      server.url,
      '--only',
      'request',
      '--report',
      report,
    ])
    expect(code).toBe(1)
    const json = JSON.parse(readFileSync(`${report}.json`, 'utf8')) as VerifyReport
    expect(json.failures).toEqual([
      expect.stringMatching(
        /^request\/routes on the real service: the recording has no answer to GET \/v2\/request\/01[0-9a-f]{64}\/routes\?wallet=0x/,
      ),
    ])
    writeFileSync(join(dir, 'nothar.har'), '{"log": {}}')
    await expect(run(['--replay', join(dir, 'nothar.har')])).rejects.toThrow(/not a HAR document/)
    await expect(run(['--replay', recording, '--against', server.url])).rejects.toThrow(/give no --against/)
  })
})
