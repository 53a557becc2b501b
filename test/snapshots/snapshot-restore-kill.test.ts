// kill -9 during a snapshot's restore: the real server (--state-dir, no chain) is killed a few milliseconds after a
// restore was sent, at several delays, and restarted each time: the key holds either what it had before the restore
// or what the snapshot holds, never neither. (test/snapshots/snapshot-restore-atomic.test.ts checks every commit of a
// restore without timing; this is the same promise from outside.)
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { killHard, type ServerProcess, startServerProcess, untilHealthy } from '../support/kill-run.ts'

const dir = mkdtempSync(join(tmpdir(), 'snapshot-kill-'))
let server: ServerProcess | undefined
afterAll(async () => {
  if (server) await killHard(server)
  rmSync(dir, { recursive: true, force: true })
})

async function send(url: string, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await res.text()
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} }
}

const request = async (url: string, key: string, reference: string) => {
  const res = await send(url, key, 'POST', '/v2/request', {
    amount: '10',
    invoiceCurrency: 'FAU-sepolia',
    paymentCurrency: 'FAU-sepolia',
    payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
    reference,
  })
  expect(res.status).toBe(201)
  return res.body.requestId as string
}

/** The ids among `ids` the key has, sorted. */
async function present(url: string, key: string, ids: string[]): Promise<string[]> {
  const found: string[] = []
  for (const id of ids) if ((await send(url, key, 'GET', `/v2/request/${id}`)).status === 200) found.push(id)
  return found.sort()
}

describe('kill -9 during a snapshot restore', () => {
  it('restarts with the key before or after the restore, never emptied', async () => {
    const args = ['--state-dir', dir, '--no-chain']
    server = await startServerProcess(args)
    await untilHealthy(server.url)
    const key = `restore-kill-${Date.now()}`
    // a world large enough that its restore takes a few milliseconds
    const snapshot: string[] = []
    for (let i = 0; i < 100; i++) snapshot.push(await request(server.url, key, `S${i}`))
    expect((await send(server.url, key, 'POST', '/__sandbox/snapshots', { name: 'base' })).status).toBe(201)
    snapshot.sort()
    const known = [...snapshot]
    const outcomes: string[] = []
    for (const delay of [4, 8, 12, 16, 22]) {
      // the key moves away from the snapshot: an acknowledged request more
      known.push(await request(server.url, key, `B${delay}`))
      const before = await present(server.url, key, known)
      const restore = fetch(`${server.url}/__sandbox/snapshots/base/restore`, {
        method: 'POST',
        headers: { 'x-api-key': key },
      }).catch(() => undefined)
      await new Promise((resolve) => setTimeout(resolve, delay))
      await killHard(server)
      await restore
      server = await startServerProcess(args)
      await untilHealthy(server.url)
      const after = await present(server.url, key, known)
      const outcome =
        after.join() === before.join() ? 'before' : after.join() === snapshot.join() ? 'after' : 'neither'
      outcomes.push(`${delay} ms: ${outcome} (${after.length} requests)`)
    }
    expect(
      outcomes.filter((o) => o.includes('neither')),
      outcomes.join('; '),
    ).toEqual([])
  }, 60_000)
})
