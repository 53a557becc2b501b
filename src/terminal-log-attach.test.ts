// The terminal log attached to a sandbox: a call's text line (written straight from its journal entry) reads as
// `formatLine` renders the entry's record, fault included, and the json format carries the same fields.
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

const at = new Date('2026-01-02T03:04:05.678Z')

it.each(['text', 'json'] as LogFormat[])(
  '%s: each call line is formatLine of its journal entry',
  async (format) => {
    const lines: string[] = []
    const entries: [string, JournalEntry][] = []
    const untap = sandbox.shared.events.on('journal', (tenant, entry) => entries.push([tenant, entry]))
    const detach = attachTerminalLog(sandbox, { format, write: (line) => lines.push(line), now: () => at })
    const key = `log-${format}`
    const get = (path: string, headers: Record<string, string> = {}) =>
      sandbox.dispatch({
        method: 'GET',
        path,
        query: {},
        headers: { 'x-api-key': key, ...headers },
        rawBody: undefined,
      })
    await get('/v2/request/nope')
    await get('/v2/request/nope', { 'x-sandbox-status': '503' })
    await get('/v1/currencies', { 'x-sandbox-scenario': 'default' })
    // what a line keeps from the call before (method, path, status; key, scenario) changes one part at a time
    await get('/v1/currencies')
    await get('/v1/currencies', { 'x-api-key': `${key}-other` })
    await get('/v1/currencies', { 'x-api-key': `${key}-other`, 'x-sandbox-scenario': 'insufficient-funds' })
    await get('/v2/request/nope', { 'x-api-key': `${key}-other` })
    await detach()
    untap()
    const calls = entries.filter(([, e]) => e.type === 'call')
    expect(calls).toHaveLength(7)
    expect(new Set(calls.map(([, e]) => e.scenario)).size).toBe(2)
    expect(lines).toEqual(
      calls.map(([tenant, entry]) =>
        formatLine(format, at, journalRecord(entry), { key: tenant, scenario: entry.scenario }),
      ),
    )
    expect(lines[1]).toContain('503')
    expect(lines[1]).toContain('x-sandbox-status')
  },
)
