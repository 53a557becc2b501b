// Bad input, derived from the official OpenAPI documents: every operation of both documents and every route of the
// control API, fed generated path parameters, queries, bodies and headers (fast-check, fixed seed). No answer is a
// 5xx, and every 4xx is in the service's error shape. `npm run bench -- fuzz` runs the same for longer.
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { routes } from '../../src/routes.ts'
import { createSandbox, type Sandbox } from '../../src/sandbox.ts'
import { type FuzzCase, fuzzTargets, runFuzzCase } from '../support/fuzz-run.ts'

const RUNS_PER_TARGET = Number(process.env.FUZZ_RUNS ?? 80)
const SEED = 20261123

let sandbox: Sandbox
const logged: string[] = []
beforeAll(async () => {
  sandbox = await createSandbox({ log: (message, error) => logged.push(`${message} ${String(error)}`) })
})
afterAll(async () => sandbox?.close())

const targets = fuzzTargets(routes)
let sent = 0
const statuses = new Map<number, number>()

describe('fuzzing from the official OpenAPI documents', () => {
  it('covers every operation of both documents and every control route', () => {
    expect(targets.filter((t) => t.source === 'full').length).toBe(65)
    expect(targets.filter((t) => t.source === 'v2').length).toBe(41)
    expect(targets.filter((t) => t.source === 'control').length).toBeGreaterThan(15)
    expect(targets.length * RUNS_PER_TARGET).toBeGreaterThanOrEqual(10_000)
  })

  it.each(targets.map((t, i) => [`${t.source} ${t.method} ${t.path}`, t, i] as const))(
    '%s: no 5xx, every 4xx in the service shape',
    async (_name, target, index) => {
      const ids = await target.prepare(sandbox)
      const failures: string[] = []
      await fc.assert(
        fc.asyncProperty(target.arbitrary(ids), async (c: FuzzCase) => {
          const outcome = await runFuzzCase(sandbox, c, statuses)
          sent++
          if (outcome) failures.push(outcome)
          if (outcome) throw new Error(outcome)
        }),
        { seed: SEED + index, numRuns: RUNS_PER_TARGET, endOnFailure: true },
      )
      expect(failures).toEqual([])
    },
  )

  it(`sent at least 10,000 requests, and nothing reached the 500 handler`, () => {
    expect(sent).toBeGreaterThanOrEqual(10_000)
    const count = (from: number, to: number) =>
      [...statuses].filter(([s]) => s >= from && s < to).reduce((n, [, c]) => n + c, 0)
    // the generated input reaches the models (successes) as well as every kind of refusal
    expect(count(200, 300)).toBeGreaterThan(500)
    expect(count(400, 500)).toBeGreaterThan(5000)
    expect([...statuses.keys()].filter((s) => s >= 400).sort()).toEqual(
      expect.arrayContaining([400, 401, 404, 415]),
    )
    expect(logged.filter((l) => /Unhandled|500/.test(l))).toEqual([])
  })
})
