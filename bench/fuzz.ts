// `npm run bench -- fuzz`: the suite's OpenAPI-derived fuzz (test/official/openapi-fuzz.test.ts), longer: FUZZ_RUNS cases
// per operation and control route (default 1000, about 130,000 requests), a new seed each run unless FUZZ_SEED is set.
// Prints the statuses seen and every answer that was a 5xx or a 4xx outside the service's error shape.
import fc from 'fast-check'
import { routes } from '../src/routes.ts'
import { createSandbox } from '../src/sandbox.ts'
import { fuzzTargets, runFuzzCase } from '../test/support/fuzz-run.ts'

/** Runs the long fuzz; resolves to the number of bad answers (all of them; the first 50 are printed). */
export async function fuzz(runs = Number(process.env.FUZZ_RUNS ?? 1000)): Promise<number> {
  const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000_000)
  const logged: string[] = []
  const sandbox = await createSandbox({ log: (m, e) => logged.push(`${m} ${String(e)}`) })
  const statuses = new Map<number, number>()
  const bad: string[] = []
  let badCount = 0
  const started = Date.now()
  try {
    const targets = fuzzTargets(routes)
    for (const [i, target] of targets.entries()) {
      const ids = await target.prepare(sandbox)
      const cases = fc.sample(target.arbitrary(ids), { seed: seed + i, numRuns: runs })
      for (const c of cases) {
        const outcome = await runFuzzCase(sandbox, c, statuses)
        if (!outcome) continue
        badCount++
        if (bad.length < 50) bad.push(outcome)
      }
    }
  } finally {
    await sandbox.close()
  }
  const total = [...statuses.values()].reduce((a, b) => a + b, 0)
  console.log(
    `Fuzz (seed ${seed}): ${total} requests in ${((Date.now() - started) / 1000).toFixed(0)} s, statuses ${[
      ...statuses,
    ]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}: ${n}`)
      .join(', ')}`,
  )
  console.log(
    `bad answers: ${badCount}${bad.length < badCount ? ` (the first ${bad.length} shown)` : ''}${bad.length ? `\n  ${bad.join('\n  ')}` : ''}`,
  )
  if (logged.length)
    console.log(`logged by the sandbox: ${logged.length}\n  ${logged.slice(0, 10).join('\n  ')}`)
  return badCount
}

if (import.meta.url === `file://${process.argv[1]}`) {
  fuzz().then(
    (bad) => process.exit(bad ? 1 : 0),
    (error) => {
      console.error(error)
      process.exit(1)
    },
  )
}
