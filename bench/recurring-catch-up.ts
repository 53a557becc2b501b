// How long a clock advance takes when it makes a recurring request catch up: a DAILY recurring request, then the
// key's clock moved `years` ahead in one call (one child request and one request.recurring per day).
// Run alone: `npx tsx bench/recurring-catch-up.ts [years]`.

import { pathToFileURL } from 'node:url'
import { requestState } from '../src/resources/requests/index.ts'
import { createSandbox } from '../src/sandbox.ts'

/** Figures of one catch-up. */
export interface RecurringCatchUp {
  years: number
  children: number
  advanceMs: number
  perChildUs: number
}

/** Creates a DAILY recurring request in a fresh sandbox (no chain) and times one advance of `years`. */
export async function measureRecurringCatchUp(years = 10): Promise<RecurringCatchUp> {
  const sandbox = await createSandbox({ chain: false, log: () => {} })
  try {
    const call = (path: string, body: unknown) =>
      sandbox.dispatch({
        method: 'POST',
        path,
        query: {},
        headers: { 'x-api-key': 'bench-recurring', 'content-type': 'application/json' },
        rawBody: JSON.stringify(body),
      })
    const created = await call('/v2/request', {
      amount: '1',
      invoiceCurrency: 'USD',
      paymentCurrency: 'ETH-sepolia-sepolia',
      payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
      recurrence: { startDate: new Date().toISOString().slice(0, 10), frequency: 'DAILY' },
    })
    if (created.status !== 201) throw new Error(`create answered ${created.status}`)
    const start = performance.now()
    const res = await call('/__sandbox/clock/advance', { seconds: years * 365 * 86_400 })
    const advanceMs = performance.now() - start
    if (res.status !== 200) throw new Error(`advance answered ${res.status}`)
    const children = requestState(sandbox.shared.tenants.get('bench-recurring')).requests.size - 1
    if (children < 1) throw new Error('the advance created no child request: nothing was timed')
    return {
      years,
      children,
      advanceMs: Math.round(advanceMs),
      perChildUs: Math.round((advanceMs * 1000) / children),
    }
  } finally {
    await sandbox.close()
  }
}

/** One line for the benchmark report. */
export function formatRecurringCatchUp(f: RecurringCatchUp): string {
  return `recurring request catch-up: ${f.children} children (${f.years} years DAILY) in ${f.advanceMs} ms (${f.perChildUs} µs each)`
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(formatRecurringCatchUp(await measureRecurringCatchUp(Number(process.argv[2] ?? 10))))
}
