// What the terminal log adds to an API call, in process (no sockets, so the figure is the log's own work): the
// time of N dispatched GET /v1/currencies (the cheapest call, so the log's share is largest) without the log,
// then with it attached in text and in json (lines formatted and handed to a writer that drops them), rounds
// interleaved because a shared machine drifts; each mode keeps its best round.
// Run alone: `npx tsx bench/terminal-log.ts [calls]`.
import { pathToFileURL } from 'node:url'
import { createSandbox, type Sandbox } from '../src/sandbox.ts'
import { attachTerminalLog, type LogFormat } from '../src/terminal-log.ts'

/** Microseconds per call for each mode, and the bytes a text line takes. */
export interface TerminalLogCost {
  calls: number
  quietUs: number
  textUs: number
  jsonUs: number
  textBytes: number
}

async function timeCalls(sandbox: Sandbox, calls: number): Promise<number> {
  const request = {
    method: 'GET',
    path: '/v1/currencies',
    query: {},
    headers: { 'x-api-key': 'bench-log' },
    rawBody: undefined,
  }
  const started = performance.now()
  for (let i = 0; i < calls; i++) await sandbox.dispatch(request)
  return ((performance.now() - started) * 1000) / calls
}

async function withLog(sandbox: Sandbox, format: LogFormat | null, calls: number) {
  let bytes = 0
  let lines = 0
  const detach = format
    ? attachTerminalLog(sandbox, {
        format,
        write: (line) => {
          bytes += line.length + 1
          lines++
        },
      })
    : () => {}
  try {
    const us = await timeCalls(sandbox, calls)
    // a log that wrote nothing (or not every call) would be timed as free
    if (format && lines !== calls)
      throw new Error(`the ${format} log wrote ${lines} lines for ${calls} calls`)
    return { us, bytes: lines ? bytes / lines : 0 }
  } finally {
    detach()
  }
}

/** Measures the three modes over `calls` calls each, three rounds. */
export async function measureTerminalLogCost(calls = 20_000): Promise<TerminalLogCost> {
  const sandbox = await createSandbox({ chain: false, log: () => {} })
  try {
    await timeCalls(sandbox, 2000)
    const best = { calls, quietUs: Infinity, textUs: Infinity, jsonUs: Infinity, textBytes: 0 }
    for (let round = 0; round < 3; round++) {
      best.quietUs = Math.min(best.quietUs, (await withLog(sandbox, null, calls)).us)
      const text = await withLog(sandbox, 'text', calls)
      best.textUs = Math.min(best.textUs, text.us)
      best.textBytes = text.bytes
      best.jsonUs = Math.min(best.jsonUs, (await withLog(sandbox, 'json', calls)).us)
    }
    return best
  } finally {
    await sandbox.close()
  }
}

/** One printed line of figures. */
export function formatTerminalLogCost(c: TerminalLogCost): string {
  const added = (us: number) => `+${(us - c.quietUs).toFixed(2)} µs`
  return `terminal log, ${c.calls} dispatched GET /v1/currencies: no log ${c.quietUs.toFixed(2)} µs a call, text ${c.textUs.toFixed(2)} µs (${added(c.textUs)}, ${c.textBytes.toFixed(0)}-byte lines), json ${c.jsonUs.toFixed(2)} µs (${added(c.jsonUs)})`
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(formatTerminalLogCost(await measureTerminalLogCost(Number(process.argv[2] ?? 20_000))))
}
