// `request-sandbox sandbox create --base <url>` prints a claimed sandbox's key and links; `show` its expiry.
import { execFile } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server.ts'
import { root } from '../support/cli-sandbox.ts'

let server: RunningServer
beforeAll(async () => {
  server = await startServer({ port: 0, chain: false, apiKeys: ['sk_operator'], claimable: {} })
}, 60_000)
afterAll(async () => {
  await server?.close()
})

const run = (args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, ['bin/request-sandbox.mjs', ...args], { cwd: root }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    )
  })

describe('request-sandbox sandbox', () => {
  it('creates a claimable sandbox and prints its key, links and expiry', async () => {
    const created = await run(['sandbox', 'create', '--base', server.url])
    expect(created.stderr).toBe('')
    expect(created.code).toBe(0)
    const key = /^key\s+(sk_sandbox_\S+)$/m.exec(created.stdout)?.[1]
    expect(key).toBeDefined()
    expect(created.stdout).toMatch(new RegExp(`^dashboard\\s+${server.url}/$`, 'm'))
    expect(created.stdout).toMatch(new RegExp(`^MCP\\s+${server.url}/mcp$`, 'm'))
    expect(created.stdout).toMatch(/^expires\s+\d{4}-\d\d-\d\dT/m)
    // the key works in strict mode
    const clock = await fetch(`${server.url}/__sandbox/clock`, { headers: { 'x-api-key': key! } })
    expect(clock.status).toBe(200)
    const shown = await run(['sandbox', 'show', key!, '--base', server.url, '--json'])
    expect(JSON.parse(shown.stdout)).toMatchObject({ key, status: 'active' })
  })

  it('says so when the server does not offer claimable sandboxes', async () => {
    const plain = await startServer({ port: 0, chain: false })
    try {
      const answer = await run(['sandbox', 'create', '--base', plain.url])
      expect(answer.code).toBe(1)
      expect(answer.stderr).toMatch(/answered 404/)
    } finally {
      await plain.close()
    }
  })
})
