// The terminal log attached to a sandbox: a call's text line (written straight from its journal entry, from pieces
// kept while they repeat) reads as `formatLine` renders the entry's record, fault included, and the json format
// carries the same fields.
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { JournalEntry } from './control/journal.ts'
import { createSandbox, type Sandbox } from './sandbox.ts'
import { attachTerminalLog, formatLine, journalRecord, type LogFormat } from './terminal-log.ts'

let sandbox: Sandbox
beforeAll(async () => {
  // the log's lines need no chain: no anvil to start for them
  sandbox = await createSandbox({ chain: false, log: () => {} })
})
afterAll(async () => sandbox?.close())

it.each(['text', 'json'] as LogFormat[])(
  '%s: each call line is formatLine of its journal entry',
  async (format) => {
    const lines: string[] = []
    const entries: [string, JournalEntry, Date][] = []
    // the log's clock, moved by the test
    let clock = Date.parse('2026-01-02T03:04:05.678Z')
    const untap = sandbox.shared.events.on('journal', (tenant, entry) =>
      entries.push([tenant, entry, new Date(clock)]),
    )
    const detach = attachTerminalLog(sandbox, {
      format,
      write: (line) => lines.push(line),
      now: () => new Date(clock),
    })
    const key = `log-${format}`
    const call = (method: string, path: string, headers: Record<string, string> = {}) =>
      sandbox.dispatch({
        method,
        path,
        query: {},
        headers: { 'x-api-key': key, ...headers },
        rawBody: undefined,
      })
    // the calls change the parts a line reuses one at a time, from the call before: status, path, the millisecond,
    // method, key; then another call (method, path and status at once) and the scenario (with the status its seed
    // answers without a chain)
    await call('GET', '/v2/request/nope')
    await call('GET', '/v2/request/nope', { 'x-sandbox-status': '503' })
    await call('GET', '/v2/request/nope')
    await call('GET', '/v2/request/nah')
    clock += 1
    await call('GET', '/v2/request/nah')
    await call('GET', '/v2/request', { 'x-sandbox-status': '404' })
    await call('POST', '/v2/request', { 'x-sandbox-status': '404' })
    await call('POST', '/v2/request', { 'x-api-key': `${key}-other`, 'x-sandbox-status': '404' })
    await call('GET', '/v1/currencies', { 'x-api-key': `${key}-other` })
    await call('GET', '/v1/currencies', {
      'x-api-key': `${key}-other`,
      'x-sandbox-scenario': 'insufficient-funds',
    })
    await detach()
    untap()
    const calls = entries.filter(([, e]) => e.type === 'call')
    expect(calls).toHaveLength(10)
    expect(new Set(calls.map(([, e]) => e.type === 'call' && e.method))).toEqual(new Set(['GET', 'POST']))
    expect(new Set(calls.map(([, e]) => e.scenario)).size).toBe(2)
    expect(lines).toEqual(
      calls.map(([tenant, entry, at]) =>
        formatLine(format, at, journalRecord(entry), { key: tenant, scenario: entry.scenario }),
      ),
    )
    expect(lines[1]).toContain('503')
    expect(lines[1]).toContain('x-sandbox-status')
  },
)
