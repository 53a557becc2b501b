// The corpus: the verify catalogue answered by the official OpenAPI documents' examples
// (test/fixtures/verify-corpus/official-examples.har, built by scripts/build-verify-corpus.ts), replayed against the
// sandbox offline on every run. What differs is either in the named allow-list with its reason, or a failure.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { buildCorpus, CORPUS_FILE, renderCorpus } from '../../scripts/build-verify-corpus.ts'
import { type RunningServer, startServer } from '../../src/index.ts'
import { FLOWS, type ReportedDifference, type VerifyReport, verify } from '../../src/verify/index.ts'
import { ALLOWED } from './corpus-allow-list.ts'

let server: RunningServer
const dir = mkdtempSync(join(tmpdir(), 'verify-corpus-'))
const corpus = CORPUS_FILE.pathname

beforeAll(async () => {
  server = await startServer({ chain: false })
})
afterAll(async () => {
  await server?.close()
  rmSync(dir, { recursive: true, force: true })
})

async function replay(file: string, name: string): Promise<{ code: number; report: VerifyReport }> {
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
  try {
    const code = await verify(['--replay', file, '--sandbox', server.url, '--report', join(dir, name)])
    return { code, report: JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8')) as VerifyReport }
  } finally {
    spy.mockRestore()
  }
}

const allowed = (d: ReportedDifference) =>
  ALLOWED.some((a) => a.operation === d.operation && a.kinds.includes(d.kind) && a.paths.includes(d.path))
const describeDifference = (d: ReportedDifference) =>
  `${d.operation} ${d.kind} ${d.path}: real ${d.real}, sandbox ${d.sandbox} (${d.flow}/${d.step})`

describe("the corpus of the official documents' examples", () => {
  it('is the file scripts/build-verify-corpus.ts builds from the vendored documents (fresh)', () => {
    expect(
      readFileSync(corpus, 'utf8'),
      'run: npx tsx scripts/build-verify-corpus.ts (the documents or the catalogue changed)',
    ).toBe(renderCorpus())
  })

  it('answers every step of the catalogue but those no document gives an answer for', () => {
    const { har, omitted } = buildCorpus()
    expect(omitted).toEqual([
      'payee-destination/signing-data-bad-action: no document lists GET /v2/payee-destination/signing-data answering 400',
      'validation-errors/payout-empty-body: no document lists POST /v2/payouts answering 400',
    ])
    const steps = FLOWS.reduce((n, f) => n + f.steps.length, 0)
    expect(har.log.entries).toHaveLength(steps - omitted.length)
    // every entry says which document and example it comes from
    for (const entry of har.log.entries)
      expect(entry.comment).toMatch(/^(V2 0\.13\.0|FULL 0\.8\.1) [A-Z]+ \/v\d\//)
    const fromExamples = har.log.entries.filter((e) => / example /.test(e.comment ?? ''))
    expect(fromExamples.length).toBeGreaterThanOrEqual(17)
  })

  it('replays offline against the sandbox: each difference is on the allow-list, and each allowed one still differs', async () => {
    const { report } = await replay(corpus, 'corpus')
    const steps = report.flows.flatMap((f) => f.steps)
    expect(steps.filter((s) => s.notRun)).toEqual([])
    expect(steps.length).toBe(buildCorpus().har.log.entries.length)
    const unexpected = report.differences.filter((d) => !allowed(d)).map(describeDifference)
    expect(
      unexpected,
      'new drift from the documents: fix the sandbox, or add it to corpus-allow-list.ts with a reason',
    ).toEqual([])
    const stale = ALLOWED.flatMap((a) =>
      a.paths
        .filter(
          (p) =>
            !report.differences.some(
              (d) => d.operation === a.operation && d.path === p && a.kinds.includes(d.kind),
            ),
        )
        .map((p) => `${a.operation} ${p}`),
    )
    expect(stale, 'allowed differences that no longer differ: remove them from corpus-allow-list.ts').toEqual(
      [],
    )
    for (const a of ALLOWED) expect(a.reason).toMatch(/^(example|abbreviated|schema|known|gap)\b/)
  })

  it('still reports drift the allow-list does not name: a renamed field, a changed type, a changed status', async () => {
    const har = JSON.parse(readFileSync(corpus, 'utf8'))
    type Entry = { _flow: string; _step: string; response: { status: number; content: { text: string } } }
    const entry = (flow: string, step: string) =>
      (har.log.entries as Entry[]).find((e) => e._flow === flow && e._step === step)!
    const edit = (e: Entry, change: (body: Record<string, unknown>) => void) => {
      const body = JSON.parse(e.response.content.text)
      change(Array.isArray(body) ? body[0] : body)
      e.response.content.text = JSON.stringify(body)
    }
    edit(entry('currencies', 'first-only'), (b) => {
      b.decimalPlaces = b.decimals
      delete b.decimals
    })
    edit(entry('request', 'get'), (b) => {
      b.hasBeenPaid = 'false'
    })
    entry('validation-errors', 'currency-unknown').response.status = 400
    const file = join(dir, 'drifted-corpus.har')
    writeFileSync(file, JSON.stringify(har))
    const { code, report } = await replay(file, 'drifted')
    expect(code).toBe(1)
    expect(report.differences.filter((d) => !allowed(d)).map((d) => [d.operation, d.kind, d.path])).toEqual([
      ['GET /v2/currencies', 'renamed-field', '$.decimalPlaces'],
      ['GET /v2/request/{requestId}', 'type', '$.hasBeenPaid'],
      ['GET /v2/currencies', 'status', 'status'],
    ])
  })
})
