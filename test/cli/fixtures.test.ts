// World files as a user loads them: `request-sandbox fixtures <file>` and `request-sandbox --fixtures <file>`
// (child processes, real ports), checked through the API and the chain; the JSON Schema editors validate with is
// the one the sandbox checks (generated from it), and the built-in demo scenario is a world file.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { renderWorldSchema } from '../../scripts/world-schema.ts'
import { api, type CliSandbox, freshKey, root, runCli, startCliSandbox } from '../support/cli-sandbox.ts'
import { waitFor } from '../support/wait.ts'
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts'

let sandbox: CliSandbox
let receiver: WebhookReceiver
const dir = mkdtempSync(join(tmpdir(), 'world-files-'))
beforeAll(async () => {
  sandbox = await startCliSandbox()
  receiver = await startReceiver()
}, 90_000)
afterAll(async () => {
  await receiver?.close()
  await sandbox?.stop()
  rmSync(dir, { recursive: true, force: true })
})

const schema = JSON.parse(readFileSync(join(root, 'fixtures/world.schema.json'), 'utf8'))
const validate = new Ajv2020({ strict: false }).compile(schema)

const world = (hook: string) => `# yaml-language-server: $schema=../fixtures/world.schema.json
payers:
  ann:
    body: { clientUserId: ann@example.com, email: ann@example.com, firstName: Ann }
    kyc: approved
    bankDetails:
      annBank: { status: approved }
  bob:
    kyc: pending
clientIds:
  shop:
    body: { label: "Shop of {{payers.ann.clientUserId}}", allowedDomains: ["http://localhost:3000"] }
webhooks:
  app: { url: "${hook}", secret: "${'ab'.repeat(32)}" }
requests:
  paid:
    body:
      amount: "30"
      invoiceCurrency: FAU-sepolia
      paymentCurrency: FAU-sepolia
      payee: "{{faker.finance.ethereumAddress}}"
      reference: "INV-{{faker.number.int({\\"min\\":100,\\"max\\":999})}}"
    paid: true
  partial:
    body:
      amount: "100"
      invoiceCurrency: FAU-sepolia
      paymentCurrency: FAU-sepolia
      payee: "{{requests.paid.payee}}"
    paid: "40"
`

describe('world files', () => {
  it('ships the JSON Schema of what the sandbox accepts, and the demo file passes it', () => {
    expect(
      readFileSync(join(root, 'fixtures/world.schema.json'), 'utf8'),
      'run: npx tsx scripts/world-schema.ts --write',
    ).toBe(renderWorldSchema())
    expect(validate(parse(readFileSync(join(root, 'fixtures/worlds/demo.yaml'), 'utf8')))).toBe(true)
    expect(validate(parse(world('http://localhost/hook')))).toBe(true)
    expect(validate({ payers: { ann: { kyc: 'maybe' } } })).toBe(false)
    expect(validate({ invoices: {} })).toBe(false)
  })

  it('documents the command, its flags and exit codes', async () => {
    const help = await runCli(['fixtures', '--help'])
    expect(help.code).toBe(0)
    for (const word of ['world.schema.json', '--fixtures', '--json', '--key', '--base', '{{faker.'])
      expect(help.stdout).toContain(word)
    expect(help.stdout).toMatch(/Exit codes/)
    const missing = await runCli(['fixtures', join(dir, 'nope.yaml'), '--key', 'k', '--base', sandbox.url])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('ENOENT')
  })

  it('loads a YAML world with references and faker: payers, bank details, client ID, webhook, requests paid on chain', async () => {
    const key = freshKey('world')
    const file = join(dir, 'world.yaml')
    writeFileSync(file, world(`${receiver.url}/${key}`))
    receiver.secret = 'ab'.repeat(32)
    const result = await runCli(['fixtures', file, '--key', key, '--base', sandbox.url, '--json'])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const { created } = JSON.parse(result.stdout)
    const payer = await api(sandbox.url, key, 'GET', '/v2/payer/ann%40example.com')
    expect(payer.body).toMatchObject({ kycStatus: 'approved', isCompliant: true })
    expect(created.payers.bob.kycStatus).toBe('pending')
    expect(created.bankDetails.annBank).toMatchObject({ clientUserId: 'ann@example.com', status: 'approved' })
    const clientIds = await api(sandbox.url, key, 'GET', '/v2/client-ids')
    expect(JSON.stringify(clientIds.body)).toContain('Shop of ann@example.com')
    const paid = await api(sandbox.url, key, 'GET', `/v2/request/${created.requests.paid.requestId}`)
    expect(paid.body).toMatchObject({ hasBeenPaid: true })
    expect(paid.body.reference).toMatch(/^INV-\d{3}$/)
    const partial = await api(sandbox.url, key, 'GET', `/v2/request/${created.requests.partial.requestId}`)
    expect(partial.body).toMatchObject({ status: 'partially_paid' })
    expect(created.requests.partial.payee).toBe(created.requests.paid.payee)
    // the webhook was registered before the requests: their payments reached it, signed with the pinned secret
    await waitFor(
      () => (receiver.received.filter((r) => r.path.endsWith(key)).length >= 2 ? true : undefined),
      { timeoutMs: 10_000, what: 'the payment webhooks' },
    )
    const events = receiver.received.filter((r) => r.path.endsWith(key))
    expect(events.every((r) => r.signatureValid)).toBe(true)
    expect(events.map((r) => r.body.event).sort()).toEqual(
      expect.arrayContaining(['payment.confirmed', 'payment.partial']),
    )
  }, 60_000)

  it('refuses a bad world file with 400 naming the entry, and POST /__sandbox/fixtures takes JSON too', async () => {
    const key = freshKey('world')
    const bad = join(dir, 'bad.json')
    writeFileSync(
      bad,
      JSON.stringify({
        requests: {
          broken: {
            body: {
              amount: '-1',
              invoiceCurrency: 'FAU-sepolia',
              paymentCurrency: 'FAU-sepolia',
              payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
            },
          },
        },
      }),
    )
    const result = await runCli(['fixtures', bad, '--key', key, '--base', sandbox.url])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('400')
    expect(result.stderr).toContain('requests.broken')
    const unknownRef = await api(sandbox.url, key, 'POST', '/__sandbox/fixtures', {
      payers: { a: { body: { email: '{{payers.z.email}}' } } },
    })
    expect(unknownRef.status).toBe(400)
    expect(unknownRef.body.message).toContain('{{payers.z.email}} names nothing created before it')
    const badFaker = await api(sandbox.url, key, 'POST', '/__sandbox/fixtures', {
      payers: { f: { body: { firstName: '{{faker.number.int({"min":5,"max":1})}}' } } },
    })
    expect(badFaker.status).toBe(400)
    expect(badFaker.body.message).toContain('payers.f.body.firstName')
    for (const template of [
      '{{faker.string.alpha(100000000)}}',
      '{{faker.string.alpha({"length":{"min":1,"max":100000000}})}}',
    ]) {
      const huge = await api(sandbox.url, key, 'POST', '/__sandbox/fixtures', {
        payers: { g: { body: { firstName: template } } },
      })
      expect(huge.status).toBe(400)
      expect(huge.body.message).toContain('payers.g.body.firstName')
      expect(huge.body.message).toContain('more than 10000')
    }
    const badUrl = await api(sandbox.url, key, 'POST', '/__sandbox/fixtures', {
      webhooks: { w: { url: 'http://[bad' } },
    })
    expect(badUrl.status).toBe(400)
    expect(badUrl.body.message).toContain('webhooks.w.url')
    const ok = await api(sandbox.url, key, 'POST', '/__sandbox/fixtures', {
      payers: { c: { kyc: 'rejected' } },
    })
    expect(ok.status).toBe(201)
    expect(ok.body.created.payers.c.kycStatus).toBe('rejected')
  }, 30_000)

  it("registers a world file's webhooks under POST /v2/webhook's rules: past --max-webhooks (25) a 400 names the entry", async () => {
    const key = freshKey('world-cap')
    const webhooks = Object.fromEntries(
      Array.from({ length: 26 }, (_, i) => [`h${i}`, { url: `http://127.0.0.1:9/hook-${i}` }]),
    )
    const over = await api(sandbox.url, key, 'POST', '/__sandbox/fixtures', { webhooks })
    expect(over.status).toBe(400)
    expect(over.body.message).toContain('webhooks.h25')
    expect(over.body.message).toContain('--max-webhooks')
    const listed = await api(sandbox.url, key, 'GET', '/v2/webhook')
    expect(listed.status).toBe(200)
    expect(JSON.stringify(listed.body).match(/hook-\d+/g)?.length).toBe(25)
  }, 30_000)

  it('seeds the demo scenario from its world file', async () => {
    const key = freshKey('demo')
    const demo = await api(sandbox.url, key, 'PUT', '/__sandbox/scenario', { scenario: 'demo' })
    expect(demo.status).toBe(200)
    const paid = await api(sandbox.url, key, 'GET', `/v2/request/${demo.body.ids.paidInvoice}`)
    expect(paid.body).toMatchObject({ hasBeenPaid: true })
    const payer = await api(sandbox.url, key, 'GET', `/v2/payer/${encodeURIComponent(demo.body.ids.payer)}`)
    expect(payer.body).toMatchObject({ isCompliant: true })
  }, 60_000)

  it('loads a world at start with --fixtures into the key the file names', async () => {
    const key = freshKey('start')
    const file = join(dir, 'start.json')
    writeFileSync(
      file,
      JSON.stringify({
        key,
        payers: {
          zoe: { body: { clientUserId: 'zoe@example.com', email: 'zoe@example.com' }, kyc: 'rejected' },
        },
      }),
    )
    const started = await startCliSandbox(['--no-chain', '--fixtures', file])
    try {
      const payer = await api(started.url, key, 'GET', '/v2/payer/zoe%40example.com')
      expect(payer.body).toMatchObject({ kycStatus: 'rejected' })
    } finally {
      await started.stop()
    }
    const noKey = join(dir, 'nokey.json')
    writeFileSync(noKey, '{}')
    const refused = await runCli(['--port', '0', '--no-chain', '--fixtures', noKey])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('names no key')
  }, 60_000)
})
