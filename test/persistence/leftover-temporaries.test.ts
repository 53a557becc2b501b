// A write of claims.json, sandbox-keys.json, a snapshot or a snapshot folder's index goes to `<name>.<pid>.tmp`
// first, then takes the name: a process killed in between leaves the temporary file. The next start removes those
// (this process's, and those of processes no longer running), and no other file of the state dir.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server.ts'
import { useTestSandbox } from '../support/test-sandbox.ts'

const t = useTestSandbox()
let server: RunningServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

/** A pid no process has now: a child's that has exited. */
function endedPid(): number {
  const child = spawnSync(process.execPath, ['-e', ''])
  return child.pid!
}

const start = (stateDir: string) =>
  startServer({ port: 0, chain: false, log: () => {}, stateDir, claimable: {} })

it('removes the temporary files killed writes left at the start, and no other file', async () => {
  const dir = t.tempDir('sandbox-leftovers-')
  // a first start makes sandbox-keys.json and state.db, and a claim claims.json
  server = await start(dir)
  expect((await fetch(`${server.url}/__sandbox/sandboxes`, { method: 'POST' })).status).toBe(201)
  await server.close()
  server = undefined
  expect(existsSync(join(dir, 'sandbox-keys.json'))).toBe(true)
  expect(existsSync(join(dir, 'claims.json'))).toBe(true)

  const dead = endedPid()
  const keyFolder = join(dir, 'snapshots', '0123456789abcdef0123456789abcdef')
  mkdirSync(keyFolder, { recursive: true })
  const leftovers = [
    `claims.json.${dead}.tmp`,
    // this process's own: none of its writes is under way at a start (a container's sandbox has the same pid each run)
    `claims.json.${process.pid}.tmp`,
    `sandbox-keys.json.${dead}.tmp`,
    `snapshots/0123456789abcdef0123456789abcdef/before-demo.json.${dead}.tmp`,
    `snapshots/0123456789abcdef0123456789abcdef/.summaries.${dead}.tmp`,
  ]
  const others = [
    // a running process's write may be under way
    `claims.json.${process.ppid}.tmp`,
    // not our names
    `claims.json.tmp`,
    `claims.json.abc.tmp`,
    `notes.txt.${dead}.tmp`,
    `backup.tmp`,
    `state.db.${dead}.tmp.keep`,
    `snapshots/0123456789abcdef0123456789abcdef/notes.txt.${dead}.tmp`,
    `snapshots/0123456789abcdef0123456789abcdef/kept.json`,
  ]
  for (const name of [...leftovers, ...others]) writeFileSync(join(dir, name), 'x')

  server = await start(dir)
  const present = (name: string) => existsSync(join(dir, name))
  expect(leftovers.filter(present)).toEqual([])
  expect(others.filter(present)).toEqual(others)
  // the claim is still served from claims.json
  expect(readdirSync(dir)).toContain('claims.json')
  const claims = await fetch(`${server.url}/__sandbox/sandboxes`, { method: 'POST' })
  expect(claims.status).toBe(201)
}, 60_000)
