// The `request-sandbox` command as a user meets it: --version, start-up failures that name their cause and the fix,
// and an anvil that never outlives the sandbox, even one killed with SIGKILL.
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))
const started: ChildProcess[] = []

/** Runs the command to its end and returns its exit code and output. */
function run(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['bin/request-sandbox.mjs', ...args], {
    cwd: root,
    env: { ...process.env, ...env },
  })
  started.push(child)
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk
  })
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk
  })
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })))
}

/** Pids of the direct children of `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  const out: number[] = []
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    const text = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim()
    if (text) out.push(...text.split(/\s+/).map(Number))
  }
  return out
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    // a zombie (exited, not yet reaped by its new parent) is gone for our purpose
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'))
  } catch {
    return false
  }
}

afterAll(() => {
  for (const child of started) if (child.pid && child.exitCode === null) child.kill('SIGKILL')
})

describe('request-sandbox on the command line', () => {
  it('prints its version with --version', async () => {
    const { version } = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { version: string }
    const result = await run(['--version'])
    expect(result).toMatchObject({ code: 0, stdout: `request-sandbox ${version}\n` })
  })

  it('names a port in use and suggests --port 0', async () => {
    const busy: Server = createServer()
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve))
    const port = (busy.address() as { port: number }).port
    try {
      const result = await run(['--port', String(port), '--no-chain'])
      expect(result.code).toBe(1)
      expect(result.stderr).toContain(`port ${port} is already in use`)
      expect(result.stderr).toContain('--port 0')
      expect(result.stderr).not.toContain('EADDRINUSE')
    } finally {
      busy.close()
    }
  })

  it('lists the valid networks when given an unknown one', async () => {
    const result = await run(['--port', '0', '--no-chain', '--networks', 'sepolia,atlantis'])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('unknown network "atlantis"')
    expect(result.stderr).toMatch(/sepolia, mainnet, base, arbitrum-one, optimism, matic/)
  })

  it('checks --networks-on-use: an unknown network is named, and --only-networks refuses it', async () => {
    const unknown = await run(['--port', '0', '--no-chain', '--networks-on-use', 'base,atlantis'])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain('unknown network "atlantis"')
    expect(unknown.stderr).toContain('--networks-on-use takes a comma-separated list of them, or all')
    const both = await run(['--port', '0', '--only-networks', 'sepolia', '--networks-on-use', 'base'])
    expect(both.code).toBe(1)
    expect(both.stderr).toContain('--only-networks starts no network on first use')
  })

  it('lists every option it accepts in --help', async () => {
    const source = readFileSync(`${root}src/cli.ts`, 'utf8')
    const table = source.slice(source.indexOf('const options = {'), source.indexOf('} as const'))
    const names = [...table.matchAll(/^\s+'?([a-z-]+)'?: \{ type:/gm)].map((m) => m[1]!)
    expect(names).toEqual(
      expect.arrayContaining(['portal', 'webhook-hosts', 'admin-key', 'max-clock-advance']),
    )
    const result = await run(['--help'])
    expect(result.code).toBe(0)
    for (const name of names) expect(result.stdout).toContain(`--${name}`)
  })

  it('points an unknown option at --help', async () => {
    const result = await run(['--prot', '8080'])
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/Unknown option '--prot'.*see request-sandbox --help/)
  })

  it('suggests -- when npm took a flag for itself (npm start --port 4000)', async () => {
    // what npm hands the script: the flag as its own config, the value as an argument
    const result = await run(['4000'], { npm_lifecycle_event: 'start', npm_config_port: 'true' })
    expect(result.code).toBe(1)
    expect(result.stderr).toContain("npm took --port for itself: put -- before the sandbox's flags")
    expect(result.stderr).toContain('`npm start -- --port 4000`')
  })

  it.runIf(existsSync('/proc/self/task'))(
    'leaves no anvil of its own behind when killed with SIGKILL',
    async () => {
      const child = spawn(process.execPath, ['bin/request-sandbox.mjs', '--port', '0'], {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      started.push(child)
      await new Promise<void>((resolve, reject) => {
        let out = ''
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk
          if (out.includes('listening on')) resolve()
        })
        child.once('exit', (code) => reject(new Error(`the sandbox exited (${code}) before listening`)))
      })
      const anvils = childrenOf(child.pid!).filter(
        (pid) => readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'anvil',
      )
      expect(anvils).toHaveLength(1)
      const anvil = anvils[0]!
      expect(alive(anvil)).toBe(true)

      const exited = new Promise((resolve) => child.once('exit', resolve))
      process.kill(child.pid!, 'SIGKILL')
      await exited
      const deadline = Date.now() + 5_000
      while (alive(anvil) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
      expect(alive(anvil)).toBe(false)
    },
  )
})

/** Every descendant of `pid`, children first (Linux /proc). */
function descendantsOf(pid: number): number[] {
  return childrenOf(pid).flatMap((child) => [child, ...descendantsOf(child)])
}

describe.runIf(existsSync('/proc/self/task'))('npm start', () => {
  it('stops node, anvil and every helper when its npm process gets SIGTERM', async () => {
    const npm = spawn('npm', ['start', '--', '--port', '0'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    started.push(npm)
    await new Promise<void>((resolve, reject) => {
      let out = ''
      npm.stdout.on('data', (chunk: Buffer) => {
        out += chunk
        if (out.includes('listening on')) resolve()
      })
      npm.once('exit', (code) => reject(new Error(`npm start exited (${code}) before listening`)))
    })
    const tree = descendantsOf(npm.pid!)
    const names = tree.map((pid) => readFileSync(`/proc/${pid}/comm`, 'utf8').trim())
    expect(names).toContain('node')
    expect(names).toContain('anvil')
    process.kill(npm.pid!, 'SIGTERM')
    const deadline = Date.now() + 10_000
    while (tree.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
    expect(tree.filter(alive).map((pid) => `${pid} ${names[tree.indexOf(pid)]}`)).toEqual([])
  }, 60_000)
})
