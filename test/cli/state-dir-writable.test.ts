// A --state-dir folder the process may not write (a root-owned host folder on a container's /data, the image running
// as uid 1000) stops the start with exit 1 and a message naming the folder, the uid and the fix, not the database
// driver's ConnectionFailed. Needs root to start the command as uid 1000.
import { spawn, spawnSync } from 'node:child_process'
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))
const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

/** Runs the command's sources as uid/gid 1000 until it exits; answers its exit code and stderr. */
function runAs1000(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    cwd: root,
    uid: 1000,
    gid: 1000,
    env: { ...process.env, HOME: tmpdir() },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk
  })
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stderr })
    }),
  )
}

/**
 * Root can start the command as uid 1000 only where uid 1000 can read the checkout (a clone under a private temporary
 * folder, as CI makes, cannot): otherwise the test has nothing to run.
 */
const canRunAs1000 =
  process.getuid?.() === 0 &&
  spawnSync(
    process.execPath,
    [
      '-e',
      'require("node:fs").accessSync(process.argv[1])',
      join(root, 'node_modules', 'tsx', 'package.json'),
    ],
    {
      uid: 1000,
      gid: 1000,
      stdio: 'ignore',
    },
  ).status === 0

describe.runIf(canRunAs1000)('--state-dir a folder the process may not write', () => {
  it('exits 1 naming the folder, the uid and the fix (chown, a named volume, --user)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-ro-'))
    dirs.push(dir)
    chmodSync(dir, 0o755) // root's, as a host folder mounted on /data
    const run = await runAs1000(['--port', '0', '--no-chain', '--quiet', '--state-dir', dir])
    expect(run.code).toBe(1)
    expect(run.stderr).toContain(`--state-dir: ${dir} is not writable by uid 1000`)
    expect(run.stderr).toContain(`chown -R 1000 ${dir}`)
    expect(run.stderr).not.toContain('ConnectionFailed')
  }, 90_000)
})
