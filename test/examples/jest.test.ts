// The app-test harness under jest (ESM, no transform), as an app would use it: the example in test/examples/jest/
// imports the compiled package, so this builds it into its own folder (dist-test/, never the dist/ that bin/ runs)
// and runs jest on it in a child process.
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'

const run = promisify(execFile)
const root = new URL('../../', import.meta.url).pathname

beforeAll(async () => {
  await run(process.execPath, [`${root}scripts/build.mjs`, '--out', 'dist-test'], { cwd: root })
}, 120_000)

describe('the harness under jest', () => {
  it('creates an invoice, pays it on chain and sees payment.confirmed, and runs a sandbox per test', async () => {
    const { stdout, stderr } = await run(
      process.execPath,
      [
        '--experimental-vm-modules',
        `${root}node_modules/jest/bin/jest.js`,
        '--config',
        'test/examples/jest/jest.config.mjs',
        '--ci',
      ],
      { cwd: root, timeout: 90_000 },
    ).catch((error: { stdout: string; stderr: string }) => {
      throw new Error(`jest failed:\n${error.stdout}\n${error.stderr}`)
    })
    const output = `${stdout}\n${stderr}`
    // invoice.test.mjs (1 test) and per-test.test.mjs (2 tests, a sandbox each)
    expect(output).toMatch(/Tests:\s+3 passed, 3 total/)
    expect(output).toContain('PASS')
  }, 120_000)
})
