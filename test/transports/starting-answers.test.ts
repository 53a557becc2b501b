// A server listens before its sandbox is ready: calls during a start that fails, or that runs past the wait, answer
// 503 in the service's error shape (`{statusCode, message, error}`, the Nest exception body every documented error
// uses: https://docs.request.network/api-reference/introduction), never an empty body.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startServer } from '../../src/server.ts'

const dir = mkdtempSync(join(tmpdir(), 'starting-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A scenario folder whose one file finishes loading (or fails to) when the test says so. */
function gatedScenarios(name: string): { dirs: string[]; open(): void; fail(error: Error): void } {
  let open!: () => void
  let fail!: (error: Error) => void
  const gate = new Promise<void>((resolve, reject) => {
    open = resolve
    fail = reject
  })
  gate.catch(() => {})
  ;(globalThis as Record<string, unknown>)[`__gate_${name}`] = gate
  const folder = join(dir, name)
  rmSync(folder, { recursive: true, force: true })
  mkdirSync(folder)
  writeFileSync(
    join(folder, `gated-${name}.mjs`),
    `await globalThis.__gate_${name}\nexport default { name: 'gated-${name}', description: 'gated', steps: [] }\n`,
  )
  return { dirs: [folder], open, fail }
}

/** A port free now (the server takes it a moment later). */
async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as { port: number }
  await new Promise((resolve) => probe.close(resolve))
  return port
}

describe('calls during the start', () => {
  it('a start that fails answers 503 in the error shape, naming the cause', async () => {
    const gate = gatedScenarios('failing')
    const port = await freePort()
    const starting = startServer({ port, chain: false, scenarioDirs: gate.dirs, log: () => {} })
    starting.catch(() => {})
    await new Promise((resolve) => setTimeout(resolve, 100))
    const call = fetch(`http://127.0.0.1:${port}/v2/request`, { headers: { 'x-api-key': 'k' } })
    await new Promise((resolve) => setTimeout(resolve, 100))
    gate.fail(new Error('the scenario could not load'))
    const response = await call
    expect(response.status).toBe(503)
    expect(response.headers.get('content-type')).toContain('application/json')
    const body = (await response.json()) as Record<string, unknown>
    expect(body).toMatchObject({ statusCode: 503, error: 'Service Unavailable' })
    expect(body.message).toMatch(/could not start/)
    await expect(starting).rejects.toThrow()
  })

  it('a start still running past the wait answers 503 "still starting" with Retry-After, then serves', async () => {
    const gate = gatedScenarios('slow')
    const port = await freePort()
    const starting = startServer({
      port,
      chain: false,
      scenarioDirs: gate.dirs,
      log: () => {},
      timeouts: { headersMs: 200, requestMs: 300 },
    })
    await new Promise((resolve) => setTimeout(resolve, 100))
    const response = await fetch(`http://127.0.0.1:${port}/v2/request`, { headers: { 'x-api-key': 'k' } })
    expect(response.status).toBe(503)
    expect(response.headers.get('retry-after')).toBe('5')
    expect(await response.json()).toMatchObject({
      statusCode: 503,
      message: expect.stringMatching(/still starting/),
      error: 'Service Unavailable',
    })
    gate.open()
    const server = await starting
    try {
      const ok = await fetch(`${server.url}/__sandbox/health`)
      expect(ok.status).toBe(200)
    } finally {
      await server.close()
    }
  })
})
