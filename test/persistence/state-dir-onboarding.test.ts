// An orchestrator's onboarding link survives its world leaving memory: with --state-dir a world past --max-worlds
// waits on disk, and the link's token (public, in a URL already handed to a platform) still opens its page, after a
// restart too.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createSandbox, type Sandbox } from '../../src/sandbox.ts'
import { newApiKey } from '../support/clients.ts'

let sandbox: Sandbox
const dir = mkdtempSync(join(tmpdir(), 'onboarding-state-'))
beforeAll(async () => {
  sandbox = await createSandbox({ stateDir: dir, chain: false, maxWorlds: 2, log: () => {} })
})
afterAll(async () => {
  await sandbox?.close()
  rmSync(dir, { recursive: true, force: true })
})

const call = (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
  const [pathname, search] = path.split('?')
  return sandbox.dispatch({
    method,
    path: pathname!,
    query: Object.fromEntries(new URLSearchParams(search ?? '')),
    headers: { host: '127.0.0.1', ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
    rawBody: body ? JSON.stringify(body) : undefined,
  })
}

it("opens an onboarding link whose orchestrator's world was evicted to disk", async () => {
  const created = await call(
    'POST',
    '/v2/orchestrators/client-id-link-intents',
    { 'x-orchestrator-key': `orc_${newApiKey().replace(/[^\w-]/g, '')}` },
    { clientIdName: 'Evicted platform' },
  )
  expect(created.status, JSON.stringify(created.body)).toBe(201)
  const token = new URL((created.body as { url: string }).url).searchParams.get('token')!
  // other keys push the orchestrator's world out of memory
  for (let i = 0; i < 4; i++)
    expect((await call('GET', '/v2/payer/nobody', { 'x-api-key': newApiKey() })).status).toBe(404)
  const page = await call('GET', `/__sandbox/orchestrator-onboarding?token=${token}`, {})
  expect(page.status).toBe(200)
  expect(String(page.body)).toContain('Evicted platform')
  expect((await call('GET', '/__sandbox/orchestrator-onboarding?token=nope', {})).status).toBe(404)
  // and after a restart: the directory's entry was committed with the intent
  await sandbox.close()
  sandbox = await createSandbox({ stateDir: dir, chain: false, maxWorlds: 2, log: () => {} })
  const again = await call('GET', `/__sandbox/orchestrator-onboarding?token=${token}`, {})
  expect(again.status).toBe(200)
  expect(String(again.body)).toContain('Evicted platform')
})
