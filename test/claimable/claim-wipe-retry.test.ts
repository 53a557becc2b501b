// An expired claim whose deletes could not be committed to --state-dir (the disk refused the write) stays unmarked in
// claims.json, so the next sweep deletes and commits again and marks it then; the failure is logged.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { prepareClaimable } from '../../src/claimable/index.ts'
import { createSandbox, type Sandbox } from '../../src/sandbox.ts'
import { createRequestListener } from '../../src/transports/node-http.ts'
import { waitFor } from '../support/wait.ts'

const DAY = 86_400_000
const dir = mkdtempSync(join(tmpdir(), 'claim-wipe-retry-'))
let sandbox: Sandbox | undefined
let server: Server | undefined
afterAll(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)))
  await sandbox?.close()
  rmSync(dir, { recursive: true, force: true })
})

const claimOf = (key: string) =>
  (JSON.parse(readFileSync(join(dir, 'claims.json'), 'utf8')).claims as { key: string; wiped?: true }[]).find(
    (c) => c.key === key,
  )

it('marks an expired claim deleted only once its deletes are committed, a failed commit retried by the next sweep', async () => {
  const logged: string[] = []
  sandbox = await createSandbox({ stateDir: dir, chain: false, log: (message) => logged.push(message) })
  const real = sandbox
  // the first commit after the expiry fails, as when the disk refuses state.db's write
  let refuse = 0
  const flaky: Sandbox = Object.create(real, {
    committed: {
      value: () => (refuse-- > 0 ? Promise.reject(new Error('disk full')) : real.committed()),
    },
  })
  let clock = Date.parse('2026-12-06T12:00:00Z')
  const claims = prepareClaimable({ now: () => clock, sweepMs: 3_600_000 }, dir).install(flaky)
  server = createServer(claims.wrap(createRequestListener(claims.guarded)))
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  const { key } = (await (await fetch(`${base}/__sandbox/sandboxes`, { method: 'POST' })).json()) as {
    key: string
  }
  const scenario = await fetch(`${base}/__sandbox/scenario`, {
    method: 'PUT',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ scenario: 'kyc-approved' }),
  })
  expect(scenario.status).toBe(200)

  clock += 8 * DAY
  refuse = 1
  claims.sweep()
  await waitFor(() => (logged.some((m) => m.includes('could not be committed')) ? true : undefined), {
    timeoutMs: 5_000,
  })
  // refused from now on, but not marked deleted: a restart (or the next sweep) deletes again
  expect(claimOf(key)).toMatchObject({ expiredAt: expect.any(String) })
  expect(claimOf(key)).not.toHaveProperty('wiped')
  expect((await fetch(`${base}/__sandbox/clock`, { headers: { 'x-api-key': key } })).status).toBe(401)

  claims.sweep()
  await waitFor(() => claimOf(key)?.wiped, { timeoutMs: 5_000 })
  expect(claimOf(key)).toMatchObject({ wiped: true })
  claims.close()
})
