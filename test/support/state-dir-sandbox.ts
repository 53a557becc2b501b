// A chainless sandbox on a fresh --state-dir with a --max-worlds bound, so worlds past the bound wait on disk; its
// hooks close it (and restore mocks) after each test and remove the directories after all of them.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, vi } from 'vitest'
import { createSandbox, type Sandbox } from '../../src/sandbox.ts'
import type { Loose } from './loose.ts'

/** The running sandbox of a test, and how to reach it. */
export interface StateDirSandbox {
  /** Starts a sandbox on a fresh directory named `prefix…` keeping `maxWorlds` worlds in memory. */
  start(prefix: string, maxWorlds: number): Promise<Sandbox>
  /** Closes the sandbox and starts another on the same directory and options. */
  restart(): Promise<Sandbox>
  /** A call dispatched in process, with `apiKey` (none when null). */
  call(
    method: string,
    path: string,
    apiKey: string | null,
    body?: unknown,
  ): Promise<{ status: number; body: Loose }>
}

/** Registers the hooks in the calling test file and answers its sandbox. */
export function useStateDirSandbox(): StateDirSandbox {
  const dirs: string[] = []
  let sandbox: Sandbox | null = null
  let options: Parameters<typeof createSandbox>[0] = {}
  afterEach(async () => {
    vi.restoreAllMocks()
    await sandbox?.close()
    sandbox = null
  })
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  })
  return {
    async start(prefix, maxWorlds) {
      const stateDir = mkdtempSync(join(tmpdir(), prefix))
      dirs.push(stateDir)
      options = { chain: false as const, stateDir, maxWorlds, log: () => {} }
      sandbox = await createSandbox(options)
      return sandbox
    },
    async restart() {
      await sandbox?.close()
      sandbox = await createSandbox(options)
      return sandbox
    },
    async call(method, path, apiKey, body) {
      const res = await sandbox!.dispatch({
        method,
        path,
        query: {},
        headers: {
          'content-type': 'application/json',
          host: '127.0.0.1:8080',
          ...(apiKey ? { 'x-api-key': apiKey } : {}),
        },
        rawBody: body === undefined ? undefined : JSON.stringify(body),
      })
      return { status: res.status, body: res.body as Loose }
    },
  }
}
