// A chainless in-process sandbox for a test file (usually on a --state-dir): its hooks close it (and restore mocks)
// after each test and remove the temporary directories after all of them.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, expect, vi } from 'vitest'
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox.ts'
import { dispatchAs } from './dispatch.ts'
import type { Loose } from './loose.ts'

/** The sandbox of the running test, and how to reach it. */
export interface TestSandbox {
  /** A fresh directory named `prefix…`, removed after the file's tests. */
  tempDir(prefix: string): string
  /** Starts a sandbox without chain or log, with `options`; it becomes the one `call` reaches. */
  start(options: Partial<SandboxOptions>): Promise<Sandbox>
  /** Closes the sandbox and starts another with the same options (on the same state dir). */
  restart(): Promise<Sandbox>
  /** Closes the sandbox. */
  stop(): Promise<void>
  /** The running sandbox. */
  current(): Sandbox
  /** A call dispatched in process, with `apiKey` (none when null). */
  call(
    method: string,
    path: string,
    apiKey: string | null,
    body?: unknown,
  ): Promise<{ status: number; body: Loose }>
  /** Creates a 10 FAU-sepolia request of `apiKey` with `reference` (answered 201) and answers its id. */
  createRequest(apiKey: string, reference: string): Promise<string>
}

/** Registers the hooks in the calling test file and answers its sandbox. */
export function useTestSandbox(): TestSandbox {
  const dirs: string[] = []
  let sandbox: Sandbox | null = null
  let options: SandboxOptions = {}
  afterEach(async () => {
    vi.restoreAllMocks()
    await sandbox?.close()
    sandbox = null
  })
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  })
  const current = () => {
    if (!sandbox) throw new Error('no sandbox running')
    return sandbox
  }
  const call: TestSandbox['call'] = dispatchAs(current)
  return {
    tempDir(prefix) {
      const dir = mkdtempSync(join(tmpdir(), prefix))
      dirs.push(dir)
      return dir
    },
    async start(startOptions) {
      options = { chain: false, log: () => {}, ...startOptions }
      sandbox = await createSandbox(options)
      return sandbox
    },
    async restart() {
      await sandbox?.close()
      sandbox = await createSandbox(options)
      return sandbox
    },
    async stop() {
      await sandbox?.close()
      sandbox = null
    },
    current,
    call,
    async createRequest(apiKey, reference) {
      const res = await call('POST', '/v2/request', apiKey, {
        amount: '10',
        invoiceCurrency: 'FAU-sepolia',
        paymentCurrency: 'FAU-sepolia',
        payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
        reference,
      })
      expect(res.status, JSON.stringify(res.body)).toBe(201)
      return res.body.requestId as string
    },
  }
}
