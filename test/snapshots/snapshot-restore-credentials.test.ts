// After a snapshot's restore, the key's client IDs authenticate again and its payers' pages open (client IDs:
// api-reference/client-ids.mdx, "x-client-id"; payer agreement and KYC links: api-features/payer-compliance.mdx),
// in memory and with --state-dir across a restart: the restore puts back what the key's worlds held, and the
// credentials that point into them with it.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { createSandbox, type Sandbox } from '../../src/sandbox.ts'
import { newApiKey } from '../support/clients.ts'
import { payerBody } from '../support/compliance.ts'
import type { Loose } from '../support/loose.ts'

const ORIGIN = 'https://shop.example.com'
const dirs: string[] = []
let sandbox: Sandbox | null = null
afterEach(async () => {
  await sandbox?.close()
  sandbox = null
})
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

async function call(method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await sandbox!.dispatch({
    method,
    path,
    query: {},
    headers: { 'content-type': 'application/json', host: '127.0.0.1:8080', ...headers },
    rawBody: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, body: res.body as Loose }
}

/** What the key's credentials open: a request made with its client ID, its payer's agreement and KYC pages. */
async function credentialsWork(clientId: string, pagePaths: string[]) {
  const made = await call(
    'POST',
    '/v2/request',
    { 'x-client-id': clientId, origin: ORIGIN },
    {
      amount: '1',
      invoiceCurrency: 'FAU-sepolia',
      paymentCurrency: 'FAU-sepolia',
      payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
    },
  )
  const pages = await Promise.all(pagePaths.map((path) => call('GET', path, {})))
  return { request: made.status, pages: pages.map((p) => p.status) }
}

describe('credentials after a snapshot restore', () => {
  for (const withStateDir of [false, true]) {
    it(`client IDs and payer page tokens work after a restore${withStateDir ? ', and after a restart (--state-dir)' : ''}`, async () => {
      const stateDir = withStateDir ? mkdtempSync(join(tmpdir(), 'snap-cred-')) : undefined
      if (stateDir) dirs.push(stateDir)
      const options = { chain: false as const, ...(stateDir ? { stateDir } : {}), log: () => {} }
      sandbox = await createSandbox(options)
      const key = newApiKey()
      const created = await call(
        'POST',
        '/v2/client-ids',
        { 'x-api-key': key },
        { label: 'Shop', allowedDomains: [ORIGIN] },
      )
      expect(created.status).toBe(201)
      const clientId = created.body.clientId as string
      const payer = await call('POST', '/v2/payer', { 'x-api-key': key }, payerBody())
      expect(payer.status).toBe(200)
      const pagePaths = [payer.body.agreementUrl, payer.body.kycUrl].map(
        (url: string) => new URL(url).pathname,
      )
      expect(await credentialsWork(clientId, pagePaths)).toEqual({ request: 201, pages: [200, 200] })

      expect(
        (await call('POST', '/__sandbox/snapshots', { 'x-api-key': key }, { name: 'before' })).status,
      ).toBe(201)
      const restored = await call('POST', '/__sandbox/snapshots/before/restore', { 'x-api-key': key })
      expect(restored.status).toBe(200)
      expect(await credentialsWork(clientId, pagePaths)).toEqual({ request: 201, pages: [200, 200] })

      if (!stateDir) return
      await sandbox.close()
      sandbox = await createSandbox(options)
      expect(await credentialsWork(clientId, pagePaths)).toEqual({ request: 201, pages: [200, 200] })
    })
  }
})
