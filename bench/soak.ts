// `npm run bench -- soak`: a mixed load on one sandbox process (20 keys, about 2,000 req/s, loopback only) for 90 s,
// printing the resident memory of the sandbox process over time. Targets: <= 250 MB, and flat (max/min within 10 %)
// over the last 60 s. Keys reset themselves periodically, as a CI run or a demo would: what stays
// in memory is then bounded by design (a key's state lives 15 s), and any growth left is a leak.
import { readFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { cpuMs, freePort, startChild, startOptionsOf, treeRss, waitFor200 } from './processes.ts'

const root = new URL('..', import.meta.url).pathname

/** Options of the soak. */
export interface SoakOptions {
  durationMs?: number
  keys?: number
  /** target request rate, all keys together */
  rate?: number
  /** ms after which a key resets itself (staggered over the keys) */
  resetEveryMs?: number
  sampleMs?: number
  /** node options of the sandbox process, in place of npm start's (the default; SOAK_NODE_ARGS, e.g. --max-old-space-size=128) */
  nodeArgs?: string[]
}

/** Resident memory of one process, in bytes. */
function rss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024
}

const payee = '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7'
const createBody = JSON.stringify({
  amount: '10',
  invoiceCurrency: 'FAU-sepolia',
  paymentCurrency: 'FAU-sepolia',
  payee,
})
// a large body (refused by validation) that the journal must not keep whole
const bigBody = JSON.stringify({ amount: '1', invoiceCurrency: 'FAU-sepolia', pad: 'x'.repeat(900 * 1024) })

/** Runs the soak and prints its figures; resolves to them. */
export async function soak(options: SoakOptions = {}) {
  const durationMs = options.durationMs ?? 90_000
  const keys = options.keys ?? 20
  const rate = options.rate ?? 2000
  const resetEveryMs = options.resetEveryMs ?? 15_000
  const sampleMs = options.sampleMs ?? 1000
  const port = await freePort()
  const sandbox = startChild('node', [
    ...(options.nodeArgs ?? startOptionsOf(`${root}bin/request-sandbox.mjs`)),
    `${root}bin/request-sandbox.mjs`,
    '--port',
    String(port),
  ])
  // read the log as a terminal would: an unread pipe fills, and the sandbox then drops its lines
  sandbox.child.stdout!.resume()
  await waitFor200(`http://127.0.0.1:${port}/__sandbox/health`)
  const pid = sandbox.child.pid!
  const agent = new Agent({ keepAlive: true, maxSockets: 64 })
  const statuses = new Map<number, number>()
  let sent = 0

  const call = (method: string, path: string, apiKey: string, body?: string) =>
    new Promise<{ status: number; text: string }>((resolve) => {
      const req = request(
        {
          agent,
          host: '127.0.0.1',
          port,
          path,
          method,
          headers: { 'x-api-key': apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
        },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (c: Buffer) => chunks.push(c))
          res.on('end', () => {
            statuses.set(res.statusCode ?? 0, (statuses.get(res.statusCode ?? 0) ?? 0) + 1)
            resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() })
          })
        },
      )
      req.on('error', () => {
        statuses.set(0, (statuses.get(0) ?? 0) + 1)
        resolve({ status: 0, text: '' })
      })
      sent++
      req.end(body)
    })

  interface KeyState {
    index: number
    apiKey: string
    ids: string[]
    resetAt: number
  }
  const state: KeyState[] = Array.from({ length: keys }, (_, i) => ({
    index: i,
    apiKey: `soak-key-${i}`,
    ids: [],
    resetAt: Date.now() + 5000 + (resetEveryMs * i) / keys,
  }))

  async function step(k: KeyState, n: number): Promise<void> {
    const roll = n % 100
    const id = k.ids.length ? k.ids[n % k.ids.length] : undefined
    if (Date.now() >= k.resetAt) {
      k.resetAt += resetEveryMs
      k.ids = []
      await call('POST', '/__sandbox/reset', k.apiKey)
    } else if (roll < 30 || !id) {
      const res = await call('POST', '/v2/request', k.apiKey, createBody)
      if (res.status === 201) {
        const { requestId } = JSON.parse(res.text) as { requestId: string }
        if (k.ids.length < 200) k.ids.push(requestId)
        else k.ids[n % 200] = requestId
      }
    } else if (roll < 55) await call('GET', `/v2/request/${id}`, k.apiKey)
    else if (roll < 65) await call('GET', `/v2/request/${id}/pay?wallet=${payee}`, k.apiKey)
    else if (roll < 75) await call('GET', '/v1/currencies', k.apiKey)
    else if (roll < 80) await call('GET', '/v2/payments', k.apiKey)
    else if (roll < 85) await call('GET', '/__sandbox/journal?limit=20', k.apiKey)
    else if (roll < 92) await call('POST', '/v2/request', k.apiKey, '{"amount":"x"}')
    else if (roll < 97) await call('GET', `/v2/request/${id}/routes?wallet=${payee}`, k.apiKey)
    // one 900 KB body per key every 1,000 calls, the keys a tenth of that apart (the keys step together: without the
    // offset all twenty would send theirs in the same few milliseconds)
    else if ((n + 100 * k.index) % 1000 === 997) await call('POST', '/v2/request', k.apiKey, bigBody)
    else await call('GET', '/__sandbox/clock', k.apiKey)
  }

  const cpuAtStart = cpuMs(pid)
  const samples: { at: number; rss: number; tree: number }[] = []
  const started = Date.now()
  const sample = () => samples.push({ at: Date.now() - started, rss: rss(pid), tree: treeRss(pid) })
  sample()
  const timer = setInterval(sample, sampleMs)
  // paced: each worker waits for its slot, so the total stays near `rate` whatever the latency
  const workers = 64
  const interval = (1000 * workers) / rate
  let n = 0
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      let next = Date.now() + (interval * w) / workers
      while (Date.now() - started < durationMs) {
        const wait = next - Date.now()
        if (wait > 0) await new Promise((r) => setTimeout(r, wait))
        next += interval
        const i = n++
        await step(state[i % keys]!, Math.floor(i / keys))
      }
    }),
  )
  clearInterval(timer)
  sample()
  const cpuSeconds = (cpuMs(pid) - cpuAtStart) / 1000
  agent.destroy()
  await sandbox.stop()

  const mb = (b: number) => b / 1024 / 1024
  const last = samples.filter((s) => s.at >= durationMs - 60_000)
  const lastMax = Math.max(...last.map((s) => s.rss))
  const lastMin = Math.min(...last.map((s) => s.rss))
  const peak = Math.max(...samples.map((s) => s.rss))
  const spread = (lastMax - lastMin) / lastMin
  console.log(
    `Soak: ${keys} keys, target ${rate} req/s for ${durationMs / 1000} s, each key resets itself every ${resetEveryMs / 1000} s`,
  )
  console.log(
    `   t (s)   sandbox RSS (MB)   with anvil (MB)   (sampled every ${sampleMs / 1000} s; every 5 s shown, all counted)`,
  )
  const shown = Math.max(1, Math.round(5000 / sampleMs))
  for (const s of samples.filter((_, i) => i % shown === 0 || i === samples.length - 1))
    console.log(
      `${(s.at / 1000).toFixed(0).padStart(8)}   ${mb(s.rss).toFixed(0).padStart(16)}   ${mb(s.tree).toFixed(0).padStart(15)}`,
    )
  const seconds = (Date.now() - started) / 1000
  console.log(
    `sent ${sent} requests (${(sent / seconds).toFixed(0)} req/s achieved); the sandbox used ${cpuSeconds.toFixed(1)} s of CPU (${((cpuSeconds * 1e6) / sent).toFixed(0)} µs a request, GC included)`,
  )
  console.log(
    `statuses: ${[...statuses].map(([s, c]) => `${s || 'error'}: ${c}`).join(', ')}${statuses.has(500) ? '   <- 5xx!' : ''}`,
  )
  console.log(`peak sandbox RSS ${mb(peak).toFixed(0)} MB (target <= 250 MB)`)
  console.log(
    `last 60 s: ${mb(lastMin).toFixed(0)}-${mb(lastMax).toFixed(0)} MB, spread ${(spread * 100).toFixed(1)} % (target <= 10 %)`,
  )
  return { peakMb: mb(peak), spread, sent, seconds, statuses, cpuSeconds }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  soak({
    ...(process.env.SOAK_MS ? { durationMs: Number(process.env.SOAK_MS) } : {}),
    ...(process.env.SOAK_RESET_MS ? { resetEveryMs: Number(process.env.SOAK_RESET_MS) } : {}),
    ...(process.env.SOAK_NODE_ARGS ? { nodeArgs: process.env.SOAK_NODE_ARGS.split(' ') } : {}),
  }).catch((error) => {
    console.error(error)
    process.exit(1)
  })
}
