// --state-dir keeps an orchestrator's state: its links (and the client ID's one link record, so a second link is
// still refused), fee configs, branding, intents and webhooks survive a stop and start on the same folder.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { createSandbox, type Sandbox } from '../../src/sandbox.ts'
import { newApiKey } from '../support/clients.ts'
import type { Loose } from '../support/loose.ts'

const dir = mkdtempSync(join(tmpdir(), 'sandbox-orchestrator-state-'))
let sandbox: Sandbox | null = null
afterAll(async () => {
  await sandbox?.close()
  rmSync(dir, { recursive: true, force: true })
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

it('restores links, fee configs, branding, intents and webhooks', async () => {
  sandbox = await createSandbox({ stateDir: dir, chain: false, log: () => {} })
  const orc = { 'x-orchestrator-key': 'orc_state_dir_test' }
  const owner = newApiKey()
  const clientId = (
    await call('POST', '/v2/client-ids', { 'x-api-key': owner }, { label: 'Shop', allowedDomains: [] })
  ).body.clientId
  // linked with its owner's consent (the owner's API key beside the orchestrator key)
  expect(
    (await call('POST', '/v2/orchestrators/client-ids', { ...orc, 'x-api-key': owner }, { clientId })).status,
  ).toBe(201)
  const fee = await call('POST', '/v2/orchestrators/fee-configs', orc, {
    bps: 125,
    feeBearer: 'recipient',
    flow: 'outgoing',
    evmRecipientAddress: '0x742d35CC6634c0532925a3B844BC9e7595f8fA40',
    clientId,
  })
  expect(fee.status).toBe(201)
  expect(
    (await call('POST', '/v2/orchestrators/branding', orc, { primaryActionColor: '#123456' })).status,
  ).toBe(201)
  const intent = await call('POST', '/v2/orchestrators/client-id-link-intents', orc, {
    clientIdName: 'Later',
  })
  const hook = await call('POST', '/v2/orchestrators/webhooks', orc, { url: 'http://127.0.0.1:9/hook' })
  // a webhook deactivated after it was written: the registry says it changed, and the change is written
  const off = await call('POST', '/v2/orchestrators/webhooks', orc, { url: 'http://127.0.0.1:9/off' })
  const deactivated = await call('DELETE', `/v2/orchestrators/webhooks/${off.body.webhook.id}`, orc)
  expect(deactivated.body.webhook).toMatchObject({ id: off.body.webhook.id, isActive: false })
  await sandbox.close()
  sandbox = null

  sandbox = await createSandbox({ stateDir: dir, chain: false, log: () => {} })
  expect((await call('GET', '/v2/orchestrators/client-ids', orc)).body.links).toEqual([
    { clientId, status: 'active' },
  ])
  expect((await call('GET', '/v2/orchestrators/fee-configs', orc)).body).toEqual([fee.body])
  expect((await call('GET', '/v2/orchestrators/branding', orc)).body.primaryActionColor).toBe('#123456')
  expect((await call('GET', '/v2/orchestrators/webhooks', orc)).body.webhooks).toEqual([
    hook.body.webhook,
    deactivated.body.webhook,
  ])
  // the client ID's one link record came back too: a second link is still refused
  expect(
    (
      await call(
        'POST',
        '/v2/orchestrators/client-ids',
        { 'x-orchestrator-key': 'orc_other', 'x-api-key': owner },
        { clientId },
      )
    ).status,
  ).toBe(409)
  const page = new URL(intent.body.url)
  const form = await sandbox.dispatch({
    method: 'GET',
    path: page.pathname,
    query: Object.fromEntries(page.searchParams),
    headers: { host: '127.0.0.1:8080' },
    rawBody: undefined,
  })
  expect(form.status).toBe(200)
})
