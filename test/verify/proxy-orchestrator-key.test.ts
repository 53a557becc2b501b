// An orchestrator's calls through `request-sandbox proxy`: its key (`x-orchestrator-key`, a credential like an API
// key) never lands in the recording, neither in its header nor where the service's answer repeats it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { startProxy } from '../../src/verify/index.ts'

const dir = mkdtempSync(join(tmpdir(), 'proxy-orchestrator-'))
let service: Server | undefined
afterAll(async () => {
  await new Promise((resolve) => service?.close(resolve))
  rmSync(dir, { recursive: true, force: true })
})

it('masks an orchestrator key in the recording', async () => {
  // a stand-in service that repeats the key it was sent (as an error message naming it might)
  service = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ seen: request.headers['x-orchestrator-key'] }))
  })
  await new Promise<void>((resolve) => service!.listen(0, '127.0.0.1', resolve))
  const target = `http://127.0.0.1:${(service.address() as AddressInfo).port}`
  const record = join(dir, 'session.har')
  const proxy = await startProxy({ target, record })
  const orchestratorKey = 'orc_live_9f8e7d6c5b4a39281706f5e4'
  try {
    const answer = await fetch(`${proxy.url}/v2/orchestrators/links`, {
      headers: { 'x-orchestrator-key': orchestratorKey },
    })
    expect(((await answer.json()) as { seen: string }).seen).toBe(orchestratorKey)
  } finally {
    await proxy.close()
  }
  const text = readFileSync(record, 'utf8')
  expect(text).not.toContain(orchestratorKey)
  const [entry] = JSON.parse(text).log.entries
  const header = entry.request.headers.find((h: { name: string }) => h.name === 'x-orchestrator-key')
  expect(header.value).toBe('[masked]')
})
