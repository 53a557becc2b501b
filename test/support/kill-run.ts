// Acknowledged means kept: the real server (`bin/request-sandbox.mjs --state-dir`) in its own process, bursts of
// creates and status changes over several keys, SIGKILL while calls are in flight, a restart, and a count of what
// answered 2xx and came back. Used by test/persistence/state-dir-kill.test.ts (short) and bench/state.ts (long).
import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { payerBody } from './compliance.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))

/** A sandbox process and its URL. */
export interface ServerProcess {
  child: ChildProcess
  url: string
}

/**
 * Starts the command on a free port; resolves once it listens (calls made before it is ready wait for it). `cwd`:
 * the checkout whose command runs (bench/state.ts measures another tree's too).
 */
export function startServerProcess(args: string[], cwd = root): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['bin/request-sandbox.mjs', '--port', '0', '--quiet', ...args], {
    cwd,
    env: { ...process.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  return new Promise((resolve, reject) => {
    let out = ''
    let err = ''
    const timer = setTimeout(() => reject(new Error(`no URL within 60 s: ${out}${err}`)), 60_000)
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk
    })
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk
      const match = /listening on (http:\/\/[^\s]+)/.exec(out)
      if (match) {
        clearTimeout(timer)
        resolve({ child, url: match[1]! })
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`sandbox exited with ${code}: ${err}`))
    })
  })
}

/** SIGKILL by pid, then waits for the exit. */
export async function killHard(server: ServerProcess): Promise<void> {
  const { child } = server
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  process.kill(child.pid!, 'SIGKILL')
  await exited
}

/** SIGTERM by pid, then waits for the exit. */
export async function stopServer(server: ServerProcess | undefined): Promise<void> {
  const child = server?.child
  if (!child || child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  process.kill(child.pid!, 'SIGTERM')
  await exited
}

/** Polls health until it answers 200; resolves with the ms it took. */
export async function untilHealthy(url: string, timeoutMs = 30_000): Promise<number> {
  const started = performance.now()
  for (;;) {
    try {
      const res = await fetch(`${url}/__sandbox/health`)
      await res.arrayBuffer()
      if (res.status === 200) return performance.now() - started
    } catch {
      // not listening yet
    }
    if (performance.now() - started > timeoutMs) throw new Error(`${url} not healthy within ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

interface Acked {
  requests: Set<string>
  clientIds: Set<string>
  /** clientUserId -> the kycStatus its last acknowledged change set */
  payers: Map<string, string>
}

/** Options of a kill run. */
export interface KillRunOptions {
  dir: string
  keys: number
  /** acknowledged objects to reach (requests, client IDs, payers) */
  objects: number
  kills: number
  /** extra arguments of the command (e.g. --no-chain) */
  args?: string[]
  concurrency?: number
  log?: (line: string) => void
  /** the checkout whose command runs (default this one) */
  root?: string
}

/** What a kill run counted. */
export interface KillRunResult {
  acknowledged: number
  /** status changes acknowledged (payers approved) */
  statuses: number
  lost: string[]
  kills: number
  /** ms from each restart's spawn to health 200 */
  restartMs: number[]
}

async function send(url: string, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await res.text()
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} }
}

const payer = (id: string) => payerBody({ clientUserId: id, email: `${id}@example.com` })

/** Bursts of writes, a SIGKILL in the middle of each, a restart, and a check of everything acknowledged so far. */
export async function killRun(options: KillRunOptions): Promise<KillRunResult> {
  const log = options.log ?? (() => {})
  const keys = Array.from({ length: options.keys }, (_, i) => `kill-run-key-${i}-${Date.now()}`)
  const acked = new Map<string, Acked>(
    keys.map((k) => [k, { requests: new Set(), clientIds: new Set(), payers: new Map() }]),
  )
  let count = 0
  let statuses = 0
  const lost: string[] = []
  const restartMs: number[] = []
  const args = ['--state-dir', options.dir, ...(options.args ?? [])]
  const perRound = Math.ceil(options.objects / (options.kills + 1))
  let serial = 0
  let server = await startServerProcess(args, options.root)
  await untilHealthy(server.url)
  for (let round = 0; round <= options.kills; round++) {
    const target = Math.min(options.objects, count + perRound)
    let killed = false
    const url = server.url
    // workers write until the round's target is acknowledged; the kill lands while they are in flight
    const worker = async (w: number) => {
      while (!killed) {
        const key = keys[(serial++ + w) % keys.length]!
        const mine = acked.get(key)!
        const n = serial++
        try {
          const kind = n % 4
          if (kind === 0 || kind === 1) {
            const r = await send(url, key, 'POST', '/v2/request', {
              amount: String(1 + (n % 50)),
              invoiceCurrency: 'USD',
              paymentCurrency: 'FAU-sepolia',
              payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
            })
            if (r.status === 201) {
              mine.requests.add(r.body.requestId as string)
              count++
            }
          } else if (kind === 2) {
            const r = await send(url, key, 'POST', '/v2/client-ids', { label: `c${n}`, allowedDomains: [] })
            if (r.status < 300) {
              mine.clientIds.add(r.body.id as string)
              count++
            }
          } else {
            const id = `payer-${n}`
            const r = await send(url, key, 'POST', '/v2/payer', payer(id))
            if (r.status !== 200) continue
            mine.payers.set(id, 'not_started')
            count++
            const forced = await send(url, key, 'POST', `/__sandbox/payers/${id}/compliance`, {
              kycStatus: 'approved',
              agreementStatus: 'completed',
            })
            if (forced.status === 200) {
              mine.payers.set(id, 'approved')
              statuses++
            }
          }
        } catch {
          // killed under this call: not acknowledged
        }
        if (count >= target && !killed) {
          killed = true
          if (round < options.kills) await killHard(server)
        }
      }
    }
    await Promise.all(Array.from({ length: options.concurrency ?? 16 }, (_, w) => worker(w)))
    if (round === options.kills) break
    const spawned = performance.now()
    server = await startServerProcess(args, options.root)
    await untilHealthy(server.url)
    restartMs.push(performance.now() - spawned)
    // everything acknowledged so far is there, with its status
    for (const [key, mine] of acked) {
      for (const id of mine.requests) {
        const r = await send(server.url, key, 'GET', `/v2/request/${id}`)
        if (r.status !== 200) lost.push(`request ${id}: ${r.status}`)
      }
      const list = await send(server.url, key, 'GET', '/v2/client-ids')
      const listed = new Set(
        (Array.isArray(list.body) ? (list.body as { id: string }[]) : []).map((c) => c.id),
      )
      for (const id of mine.clientIds) if (!listed.has(id)) lost.push(`client ID ${id}`)
      for (const [id, kyc] of mine.payers) {
        const r = await send(server.url, key, 'GET', `/v2/payer/${id}`)
        if (r.status !== 200) lost.push(`payer ${id}: ${r.status}`)
        else if (kyc === 'approved' && r.body.kycStatus !== 'approved')
          lost.push(`payer ${id}: kycStatus ${String(r.body.kycStatus)}, acknowledged approved`)
      }
    }
    log(
      `kill ${round + 1}: ${count} acknowledged, ${new Set(lost).size} lost so far, restart ${restartMs.at(-1)!.toFixed(0)} ms`,
    )
  }
  await stopServer(server)
  // every check reads everything acknowledged so far: an object lost once is counted once
  return { acknowledged: count, statuses, lost: [...new Set(lost)], kills: options.kills, restartMs }
}
