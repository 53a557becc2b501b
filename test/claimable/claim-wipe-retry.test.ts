// An expired claim whose deletion failed (its deletes not committed to --state-dir, or a snapshot file the disk would
// not remove) stays unmarked in claims.json: the failure is logged, nothing is thrown at the sweep (a timer) or the
// call that expired it, and the next sweep deletes again and marks it then.
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
const dirs: string[] = []
const sandboxes: Sandbox[] = []
const servers: Server[] = []
afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve))
  for (const sandbox of sandboxes) await sandbox.close()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

/**
 * A sandbox on a new state dir, its claimable sandboxes installed on `wrap` of it and served; a claim made there
 * whose key chose a scenario and saved a snapshot.
 */
async function claimed(wrap: (real: Sandbox) => Sandbox) {
  const dir = mkdtempSync(join(tmpdir(), 'claim-wipe-retry-'))
  dirs.push(dir)
  const logged: string[] = []
  const real = await createSandbox({
    stateDir: dir,
    chain: false,
    log: (message, error) => logged.push(`${message} ${(error as Error | undefined)?.message ?? ''}`),
  })
  sandboxes.push(real)
  const clock = { now: Date.parse('2026-12-06T12:00:00Z') }
  const claims = prepareClaimable({ now: () => clock.now, sweepMs: 3_600_000 }, dir).install(wrap(real))
  const server = createServer(claims.wrap(createRequestListener(claims.guarded)))
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  const { key } = (await (await fetch(`${base}/__sandbox/sandboxes`, { method: 'POST' })).json()) as {
    key: string
  }
  const send = (method: string, path: string, body: unknown) =>
    fetch(`${base}${path}`, {
      method,
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  expect((await send('PUT', '/__sandbox/scenario', { scenario: 'kyc-approved' })).status).toBe(200)
  expect((await send('POST', '/__sandbox/snapshots', { name: 'before' })).status).toBe(201)
  const claim = () =>
    (
      JSON.parse(readFileSync(join(dir, 'claims.json'), 'utf8')).claims as {
        key: string
        expiredAt?: string
        wiped?: true
      }[]
    ).find((c) => c.key === key)
  const expiredCall = async () =>
    (await fetch(`${base}/__sandbox/clock`, { headers: { 'x-api-key': key } })).status
  return { real, claims, clock, logged, key, claim, expiredCall }
}

it('marks an expired claim deleted only once its deletes are committed, a failed commit retried by the next sweep', async () => {
  // the first commit after the expiry fails, as when the disk refuses state.db's write
  let refuse = 0
  const { claims, clock, logged, claim, expiredCall } = await claimed((real) =>
    Object.create(real, {
      committed: { value: () => (refuse-- > 0 ? Promise.reject(new Error('disk full')) : real.committed()) },
    }),
  )
  clock.now += 8 * DAY
  refuse = 1
  claims.sweep()
  await waitFor(() => (logged.some((m) => m.includes('could not be committed')) ? true : undefined), {
    timeoutMs: 5_000,
  })
  // refused from now on, but not marked deleted: a restart (or the next sweep) deletes again
  expect(claim()).toMatchObject({ expiredAt: expect.any(String) })
  expect(claim()).not.toHaveProperty('wiped')
  expect(await expiredCall()).toBe(401)

  claims.sweep()
  await waitFor(() => claim()?.wiped, { timeoutMs: 5_000 })
  expect(claim()).toMatchObject({ wiped: true })
  claims.close()
})

it('logs a snapshot file the disk would not remove, throws nothing at the sweep, and deletes it at the next', async () => {
  // the first removal of a snapshot file fails, as on a disk that refuses it (EBUSY, EPERM)
  let refuse = 0
  const { real, claims, clock, logged, key, claim, expiredCall } = await claimed((real) => {
    const snapshots = new Proxy(real.shared.snapshots, {
      get(target, name) {
        if (name === 'delete' && refuse-- > 0)
          return () => {
            throw Object.assign(new Error('EBUSY: resource busy or locked'), { code: 'EBUSY' })
          }
        const value = Reflect.get(target, name, target)
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
    return Object.create(real, {
      shared: { value: Object.create(real.shared, { snapshots: { value: snapshots } }) },
    })
  })
  clock.now += 8 * DAY
  // the sweep that expires it tries twice (at the expiry, then with the deletions that failed before)
  refuse = 2
  expect(() => claims.sweep()).not.toThrow()
  expect(logged.join('\n')).toMatch(/claimable: the deletion of an expired key failed .*EBUSY/)
  expect(claim()).not.toHaveProperty('wiped')
  expect(await expiredCall()).toBe(401)
  expect(real.shared.snapshots.list(key).snapshots.map((s) => s.name)).toEqual(['before'])

  claims.sweep()
  await waitFor(() => claim()?.wiped, { timeoutMs: 5_000 })
  expect(real.shared.snapshots.list(key).snapshots).toEqual([])
  claims.close()
})
