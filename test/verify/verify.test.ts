// request-sandbox verify as its contract test: the catalogue run against the sandbox itself reports nothing; against
// a drifted copy (a sandbox behind a proxy that renames a field, changes a type, a status, adds an enum value, drops
// a header) it reports each planted difference exactly once, with operation and path, and nothing else.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { type RunningServer, startServer } from '../../src/index.ts'
import { FLOWS, httpTarget, runVerify, type VerifyReport, verify } from '../../src/verify/index.ts'
import { runCli } from '../support/cli-sandbox.ts'
import { DRIFTS, startDriftedServer } from './drifted-server.ts'

let server: RunningServer
let drifted: Awaited<ReturnType<typeof startDriftedServer>>
const dir = mkdtempSync(join(tmpdir(), 'verify-'))
// a closed local port: the webhooks flow registers and deletes a webhook there, nothing is delivered
const webhookUrl = 'http://127.0.0.1:9/verify-hook'

beforeAll(async () => {
  server = await startServer({ chain: false })
  drifted = await startDriftedServer(server.url)
})
afterAll(async () => {
  await drifted?.close()
  await server?.close()
  rmSync(dir, { recursive: true, force: true })
})

const key = (label: string) => `rn_verify_${label}_${Math.random().toString(36).slice(2, 10)}`
const stepsIn = (flows: typeof FLOWS) => flows.reduce((n, f) => n + f.steps.length, 0)

/** Runs the command in this process; answers its exit code and what it printed. */
async function run(args: string[]): Promise<{ code: number; stdout: string }> {
  args.push('--rate', '100')
  let stdout = ''
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk)
    return true
  })
  try {
    return { code: await verify(args), stdout }
  } finally {
    spy.mockRestore()
  }
}

describe('verify: the sandbox against itself', () => {
  it('runs every step of every flow on both sides and finds no difference (API key)', async () => {
    const target = httpTarget(server.url)
    const report = await runVerify({
      flows: FLOWS,
      real: { label: 'a', target, credentials: { apiKey: key('real') } },
      sandbox: { label: 'b', target, credentials: { apiKey: key('sandbox') } },
      inputs: { payee: '0x000000000000000000000000000000000000dEaD', run: 'self', webhookUrl },
    })
    expect(report.differences).toEqual([])
    const ran = report.flows.flatMap((f) =>
      f.steps.filter((s) => s.real !== undefined && s.sandbox !== undefined),
    )
    expect(report.flows.filter((f) => f.skipped)).toEqual([])
    expect(ran).toHaveLength(stepsIn(FLOWS))
  })

  it('finds no difference with client IDs either, and skips the flows that need a key', async () => {
    const target = httpTarget(server.url)
    const origin = 'https://app.verify.test'
    const clientId = async (apiKey: string) => {
      const made = await target({
        method: 'POST',
        url: '/v2/client-ids',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ label: 'verify', allowedDomains: [origin] }),
      })
      return JSON.parse(made.body).clientId as string
    }
    const report = await runVerify({
      flows: FLOWS,
      real: { label: 'a', target, credentials: { clientId: await clientId(key('real')), origin } },
      sandbox: { label: 'b', target, credentials: { clientId: await clientId(key('sandbox')), origin } },
      inputs: { payee: '0x000000000000000000000000000000000000dEaD', run: 'self-client' },
    })
    expect(report.differences).toEqual([])
    expect(report.flows.filter((f) => f.skipped).map((f) => f.id)).toEqual([
      'request-v1',
      'client-ids',
      'webhooks',
    ])
    const ran = report.flows.flatMap((f) =>
      f.steps.filter((s) => s.real === s.sandbox && s.real !== undefined),
    )
    expect(ran.length).toBeGreaterThan(20)
  })

  it('exits 0 from the command and writes an empty report', async () => {
    const report = join(dir, 'self')
    const { code, stdout } = await run([
      '--against',
      server.url,
      '--key',
      key('real'),
      '--sandbox',
      server.url,
      '--webhook-url',
      webhookUrl,
      '--report',
      report,
    ])
    expect(stdout).toContain('no difference')
    expect(code).toBe(0)
    const json = JSON.parse(readFileSync(`${report}.json`, 'utf8')) as VerifyReport
    expect(json.differences).toEqual([])
    expect(readFileSync(`${report}.md`, 'utf8')).toContain('## Differences (0)')
  })
})

describe('verify: the command against a sandbox', () => {
  it('starts its own sandbox when --sandbox is not given, and finds no difference', async () => {
    const { code, stdout } = await run([
      '--against',
      server.url,
      '--key',
      key('real'),
      '--no-chain',
      '--only',
      'currencies,request',
    ])
    expect(stdout).toContain('sandbox started in-process')
    expect(stdout).toContain('2 flow(s), 10 call(s) on each side')
    expect(code).toBe(0)
  })

  it('with --client-id, makes a client ID on the sandbox for the same origin and compares through both', async () => {
    const origin = 'https://shop.verify.test'
    const made = await fetch(`${server.url}/v2/client-ids`, {
      method: 'POST',
      headers: { 'x-api-key': key('real'), 'content-type': 'application/json' },
      body: JSON.stringify({ label: 'verify', allowedDomains: [origin] }),
    })
    const { clientId } = (await made.json()) as { clientId: string }
    const report = join(dir, 'client')
    const { code } = await run([
      '--against',
      server.url,
      '--client-id',
      clientId,
      '--origin',
      origin,
      '--sandbox',
      server.url,
      '--report',
      report,
    ])
    expect(code).toBe(0)
    const json = JSON.parse(readFileSync(`${report}.json`, 'utf8')) as VerifyReport
    expect(json.flows.filter((f) => f.skipped).map((f) => f.id)).toEqual([
      'request-v1',
      'client-ids',
      'webhooks',
    ])
    const created = json.flows.find((f) => f.id === 'request')!.steps[0]!
    expect([created.real, created.sandbox]).toEqual([201, 201])
  })
})

describe('verify: a drifted service', () => {
  it('reports each planted difference exactly once, with operation and path, and exits 1', async () => {
    const report = join(dir, 'drifted.md')
    const realKey = key('real')
    const { code, stdout } = await run([
      '--against',
      drifted.url,
      '--key',
      realKey,
      '--sandbox',
      server.url,
      '--webhook-url',
      webhookUrl,
      '--report',
      report,
    ])
    expect(code).toBe(1)
    const json = JSON.parse(readFileSync(join(dir, 'drifted.json'), 'utf8')) as VerifyReport
    const found = json.differences.map((d) => ({ operation: d.operation, kind: d.kind, path: d.path }))
    expect(found).toHaveLength(DRIFTS.length)
    expect(found).toEqual(
      expect.arrayContaining(DRIFTS.map((d) => ({ operation: d.operation, kind: d.kind, path: d.path }))),
    )
    // the renamed field is read in two flows: one difference, both places named
    const renamed = json.differences.find((d) => d.kind === 'renamed-field')!
    expect([renamed.real, renamed.sandbox]).toEqual(['isPaid', 'hasBeenPaid'])
    expect(renamed.alsoIn).toHaveLength(1)
    expect(json.differences.find((d) => d.kind === 'enum')).toMatchObject({
      real: 'ERC777',
      sandbox: '(none)',
    })
    expect(json.differences.find((d) => d.kind === 'type')).toMatchObject({
      real: 'string',
      sandbox: 'number',
    })
    for (const d of DRIFTS) expect(stdout).toContain(d.operation)
    expect(stdout).not.toContain(realKey)
    expect(readFileSync(report, 'utf8')).not.toContain(realKey)
    expect(readFileSync(report, 'utf8')).toContain(
      '| GET /v2/request/{requestId} | field renamed | `$.isPaid` |',
    )
  })

  it('hides what --ignore masks, and exits 0 when nothing else differs', async () => {
    const { code, stdout } = await run([
      '--against',
      drifted.url,
      '--key',
      key('real'),
      '--sandbox',
      server.url,
      '--webhook-url',
      webhookUrl,
      '--ignore',
      '$.isPaid',
      '--ignore',
      'GET /v2/request/{requestId}/routes $..fee',
      '--ignore',
      'POST /v2/webhook status',
      '--ignore',
      '$[*].type',
      '--ignore',
      'header content-type',
    ])
    expect(stdout).toContain(`no difference (${DRIFTS.length} hidden by --ignore)`)
    expect(code).toBe(0)
  })

  it('runs only the flows --only names', async () => {
    const report = join(dir, 'only')
    const { code } = await run([
      '--against',
      drifted.url,
      '--key',
      key('real'),
      '--sandbox',
      server.url,
      '--only',
      'currencies,client-ids',
      '--report',
      report,
    ])
    expect(code).toBe(1)
    const json = JSON.parse(readFileSync(`${report}.json`, 'utf8')) as VerifyReport
    expect(json.flows.map((f) => f.id)).toEqual(['currencies', 'client-ids'])
    expect(json.differences.map((d) => d.operation).sort()).toEqual([
      'GET /v2/client-ids',
      'GET /v2/currencies',
    ])
  })
})

describe('verify: what it leaves on the service', () => {
  it('revokes the client ID and deletes the webhook it created', async () => {
    const realKey = key('real')
    const { code } = await run([
      '--against',
      server.url,
      '--key',
      realKey,
      '--sandbox',
      server.url,
      '--webhook-url',
      webhookUrl,
      '--only',
      'client-ids,webhooks',
    ])
    expect(code).toBe(0)
    const get = async (path: string) =>
      (await fetch(server.url + path, { headers: { 'x-api-key': realKey } })).json() as Promise<
        { status?: string }[]
      >
    const clientIds = await get('/v2/client-ids')
    expect(clientIds).toHaveLength(1)
    expect(clientIds[0]!.status).toBe('revoked')
    expect(await get('/v2/webhook')).toEqual([])
  })

  it('compares only the objects it made in lists of the whole account', async () => {
    const realKey = key('real')
    // the user's account already holds a revoked client ID: its status is no drift
    const made = await fetch(`${server.url}/v2/client-ids`, {
      method: 'POST',
      headers: { 'x-api-key': realKey, 'content-type': 'application/json' },
      body: JSON.stringify({ label: 'older', allowedDomains: ['https://older.test'] }),
    })
    const { id } = (await made.json()) as { id: string }
    await fetch(`${server.url}/v2/client-ids/${id}`, { method: 'DELETE', headers: { 'x-api-key': realKey } })
    const target = httpTarget(server.url)
    const report = await runVerify({
      flows: FLOWS.filter((f) => f.id === 'client-ids'),
      real: { label: 'a', target, credentials: { apiKey: realKey } },
      sandbox: { label: 'b', target, credentials: { apiKey: key('sandbox') } },
      inputs: { payee: '0x000000000000000000000000000000000000dEaD', run: 'pick' },
    })
    expect(report.differences).toEqual([])
    expect(report.flows[0]!.steps.map((s) => s.real)).toEqual([201, 200, 200, 200, 200])
  })

  it('still revokes what it created when a side stops answering mid-flow, and says the run is incomplete', async () => {
    const realKey = key('real')
    const healthy = httpTarget(server.url)
    const report = await runVerify({
      flows: FLOWS.filter((f) => f.id === 'client-ids'),
      real: {
        label: 'flaky',
        target: async (request) => {
          if (request.method === 'GET' && request.url === '/v2/client-ids')
            throw new Error('connection reset')
          return healthy(request)
        },
        credentials: { apiKey: realKey },
      },
      sandbox: { label: 'b', target: healthy, credentials: { apiKey: key('sandbox') } },
      inputs: { payee: '0x000000000000000000000000000000000000dEaD', run: 'flaky' },
    })
    expect(report.failures).toEqual(['client-ids/list on the real service: connection reset'])
    const steps = report.flows[0]!.steps
    expect(steps.map((s) => [s.step, s.real, s.notRun !== undefined])).toEqual([
      ['create', 201, false],
      ['list', undefined, true],
      ['get', undefined, true],
      ['rename', undefined, true],
      ['revoke', 200, false],
    ])
    const left = (await (
      await fetch(`${server.url}/v2/client-ids`, { headers: { 'x-api-key': realKey } })
    ).json()) as { status: string }[]
    expect(left.map((c) => c.status)).toEqual(['revoked'])
  })

  it('exits 1 when the service cannot be reached', async () => {
    const { code, stdout } = await run([
      '--against',
      'http://127.0.0.1:9',
      '--key',
      'k',
      '--sandbox',
      server.url,
      '--only',
      'currencies',
    ])
    expect(code).toBe(1)
    expect(stdout).toContain(
      'currencies/list on the real service: GET http://127.0.0.1:9/v2/currencies could not be sent',
    )
  })

  it('--dry-run lists every call and what each flow leaves, and calls nothing', async () => {
    const { code, stdout } = await run(['--dry-run', '--against', 'http://127.0.0.1:9', '--key', 'k'])
    expect(code).toBe(0)
    for (const flow of FLOWS) {
      expect(stdout).toContain(`${flow.id}: ${flow.summary}`)
      expect(stdout).toContain(`leaves on the service: ${flow.creates}`)
    }
    expect(stdout).toContain(
      'webhooks: register a webhook to --webhook-url, list it, delete it (skipped: needs --webhook-url)',
    )
    expect(stdout).toContain('POST /v2/request {"payee":"{input.payee}"')
    expect(stdout).toContain(
      'GET /v2/request/{create.requestId}/pay?wallet=0x000000000000000000000000000000000000dEaD',
    )
    expect(stdout).toContain('DELETE /v2/client-ids/{create.id} (cleanup)')
  })

  it('is documented flow by flow, with what each leaves on the service', () => {
    const guide = readFileSync(join(import.meta.dirname, '../../docs/verify.md'), 'utf8')
    for (const flow of FLOWS) {
      const row = guide.split('\n').find((line) => line.startsWith(`| \`${flow.id}\` |`))
      expect(row, flow.id).toBeDefined()
      expect(row!.endsWith(`| ${flow.creates} |`), row).toBe(true)
    }
  })

  it('is a tool of the command: --help, and usage errors exit 2', async () => {
    const help = await runCli(['verify', '--help'])
    expect(help.code).toBe(0)
    const source = readFileSync(join(import.meta.dirname, '../../src/verify/command.ts'), 'utf8')
    const table = source.slice(source.indexOf('const options = {'), source.indexOf('} as const'))
    const names = [...table.matchAll(/^\s+'?([a-z-]+)'?: \{ type:/gm)].map((m) => m[1]!)
    expect(names.length).toBeGreaterThan(15)
    for (const name of names) expect(help.stdout).toContain(`--${name}`)
    for (const word of [
      '--against',
      '--key',
      '--client-id',
      '--origin',
      '--only',
      '--skip',
      '--ignore',
      '--report',
      '--dry-run',
    ])
      expect(help.stdout).toContain(word)
    const noKey = await runCli(['verify', '--against', 'http://127.0.0.1:9'], { REQUEST_NETWORK_API_KEY: '' })
    expect(noKey.code).toBe(2)
    expect(noKey.stderr).toContain('--key')
    const clear = await runCli(['verify', '--against', 'http://api.example.com', '--key', 'k'])
    expect(clear.code).toBe(2)
    expect(clear.stderr).toContain('would send your credentials unencrypted')
    const unknown = await runCli(['verify', '--dry-run', '--only', 'nope'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('unknown flow nope')
  })
})
