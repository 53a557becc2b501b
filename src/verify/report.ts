// The report of a verify run: text for a terminal, Markdown for a pull request or a bug report, JSON for tools.
import type { ReportedDifference, VerifyReport } from './run.ts'

const what: Record<ReportedDifference['kind'], string> = {
  status: 'status code',
  header: 'header',
  body: 'body',
  'missing-field': 'field missing in the sandbox',
  'extra-field': 'field only in the sandbox',
  'renamed-field': 'field renamed',
  type: 'type',
  format: 'format',
  enum: 'enum values (only on each side)',
  message: 'error message',
}

function where(d: ReportedDifference): string {
  return [`${d.flow}/${d.step}`, ...d.alsoIn].join(', ')
}

function byOperation(report: VerifyReport): Map<string, ReportedDifference[]> {
  const groups = new Map<string, ReportedDifference[]>()
  for (const d of report.differences) groups.set(d.operation, [...(groups.get(d.operation) ?? []), d])
  return groups
}

function counts(report: VerifyReport): string {
  const ran = report.flows.filter((f) => !f.skipped).length
  const skipped = report.flows.filter((f) => f.skipped)
  const calls = report.flows.reduce((n, f) => n + f.steps.filter((s) => s.real !== undefined).length, 0)
  return `${ran} flow(s), ${calls} call(s) on each side${skipped.length ? `; skipped: ${skipped.map((f) => `${f.id} (${f.skipped})`).join(', ')}` : ''}`
}

/** The report as a person reads it in a terminal. */
export function textReport(report: VerifyReport): string {
  const lines = [`verify: real ${report.real} against sandbox ${report.sandbox}`, counts(report)]
  for (const flow of report.flows)
    for (const step of flow.steps)
      if (step.notRun) lines.push(`  ${flow.id}/${step.step} not run: ${step.notRun}`)
  const n = report.differences.length
  lines.push(
    n === 0
      ? `no difference${report.masked ? ` (${report.masked} hidden by --ignore)` : ''}`
      : `${n} difference(s)${report.masked ? ` (${report.masked} more hidden by --ignore)` : ''}:`,
  )
  for (const [operation, differences] of byOperation(report)) {
    lines.push('', `  ${operation}`)
    for (const d of differences) {
      const values =
        d.kind === 'renamed-field'
          ? `real "${d.real}", sandbox "${d.sandbox}"`
          : `real ${d.real}, sandbox ${d.sandbox}`
      const at = d.path.startsWith('$') ? `${what[d.kind]} at ${d.path}` : d.path
      lines.push(`    ${at}: ${values}   (${where(d)})`)
    }
  }
  return `${lines.join('\n')}\n`
}

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ')

/** The report as Markdown: the differences, then every flow's calls with both statuses. */
export function markdownReport(report: VerifyReport): string {
  const lines = [
    '# request-sandbox verify',
    '',
    `Real service: ${report.real}. Sandbox: ${report.sandbox}. ${counts(report)}.`,
    '',
    `## Differences (${report.differences.length})`,
    '',
  ]
  if (report.differences.length === 0) lines.push('None.', '')
  else {
    lines.push('| operation | what | path | real | sandbox | flow step |', '|---|---|---|---|---|---|')
    for (const d of report.differences)
      lines.push(
        `| ${cell(d.operation)} | ${what[d.kind]} | \`${cell(d.path)}\` | ${cell(d.real)} | ${cell(d.sandbox)} | ${cell(where(d))} |`,
      )
    lines.push('')
  }
  if (report.masked) lines.push(`${report.masked} difference(s) hidden by --ignore.`, '')
  if (report.failures.length)
    lines.push('## Calls without an answer', '', ...report.failures.map((f) => `- ${cell(f)}`), '')
  lines.push('## Flows', '')
  for (const flow of report.flows) {
    lines.push(`### ${flow.id}`, '', `${flow.summary}. Leaves on the service: ${flow.creates}.`, '')
    if (flow.skipped) {
      lines.push(`Skipped: ${flow.skipped}.`, '')
      continue
    }
    lines.push('| step | call | real | sandbox |', '|---|---|---|---|')
    for (const s of flow.steps)
      lines.push(
        `| ${s.step} | \`${cell(s.call)}\` | ${s.real ?? '-'} | ${s.sandbox ?? '-'}${s.notRun ? ` (${cell(s.notRun)})` : ''} |`,
      )
    lines.push('')
  }
  return lines.join('\n')
}

/** The report as JSON (the `VerifyReport` itself). */
export function jsonReport(report: VerifyReport): string {
  return `${JSON.stringify(report, null, 2)}\n`
}
