// The server's terminal log, as anvil and `stripe listen` print theirs: one line per API call (method, path,
// status, ms, key, scenario), per event, per payment the detectors record (transaction hash, reference) and per
// webhook attempt (URL, status, retry count). Text for people, or one JSON object per line (`--log-format json`).
// It reads the journal of every key through one tap (entries as recorded: call bodies are never read here) and
// the detectors' payments; formatting a short line is all it adds to a call.

import type { World } from './contract/world.ts'
import type { JournalEntry } from './control/journal.ts'
import type { DetectedPayment, RequestRecord } from './resources/requests/schema.ts'
import type { Sandbox } from './sandbox.ts'

/** `text` (aligned columns) or `json` (one object per line). */
export type LogFormat = 'text' | 'json'

/** Options of attachTerminalLog. */
export interface TerminalLogOptions {
  format: LogFormat
  /** where a finished line goes (default: process.stdout) */
  write?: (line: string) => void
  /** the clock of the time column (default: the wall clock) */
  now?: () => Date
}

/** One log line's fields, before formatting. */
export type LogRecord =
  | { type: 'call'; method: string; path: string; status: number; ms: number; fault?: string }
  | { type: 'event'; event: string; eventId: string; requestId?: string }
  | {
      type: 'payment'
      network: string
      txHash: string
      blockNumber: number
      reference: string
      requestId: string
      amount: string
      currency: string
    }
  | {
      type: 'webhook'
      event: string
      url: string
      status: number | null
      retryCount: number
      outcome: string
      deliveryId: string
      error?: string
    }

/** The log record of a journal entry. */
export function journalRecord(entry: JournalEntry): LogRecord {
  switch (entry.type) {
    case 'call':
      return {
        type: 'call',
        method: entry.method,
        path: entry.path,
        status: entry.status,
        ms: entry.durationMs,
        ...(entry.fault ? { fault: entry.fault } : {}),
      }
    case 'event': {
      const requestId = entry.payload.requestId ?? entry.payload.requestID
      return {
        type: 'event',
        event: entry.event,
        eventId: entry.eventId,
        ...(typeof requestId === 'string' ? { requestId } : {}),
      }
    }
    case 'delivery':
      return {
        type: 'webhook',
        event: entry.event,
        url: entry.url,
        status: entry.status,
        retryCount: entry.retryCount,
        outcome: entry.outcome,
        deliveryId: entry.deliveryId,
        ...(entry.error ? { error: entry.error } : {}),
      }
  }
}

/** The log record of a payment the detector recorded. */
export function paymentRecord(request: RequestRecord, payment: DetectedPayment): LogRecord {
  return {
    type: 'payment',
    network: payment.network,
    txHash: payment.txHash,
    blockNumber: payment.blockNumber,
    reference: request.paymentReference,
    requestId: request.requestId,
    amount: payment.paidAmount,
    currency: request.paymentCurrency,
  }
}

const time = (at: Date) => at.toISOString().slice(11, 23)

function text(record: LogRecord): string {
  switch (record.type) {
    case 'call':
      return `${record.method.padEnd(6)} ${record.path} ${record.status} ${record.ms} ms${record.fault ? ` (fault: ${record.fault})` : ''}`
    case 'event':
      return `event  ${record.event}${record.requestId ? ` request ${record.requestId}` : ''}`
    case 'payment':
      return `paid   ${record.network} tx ${record.txHash} block ${record.blockNumber} reference ${record.reference} request ${record.requestId} ${record.amount} ${record.currency}`
    case 'webhook':
      return `hook   ${record.event} -> ${record.url} ${record.status ?? 'no answer'} retry ${record.retryCount} ${record.outcome}${record.error ? ` (${record.error})` : ''}`
  }
}

/** One line of the log, without its newline. */
export function formatLine(
  format: LogFormat,
  at: Date,
  record: LogRecord,
  who: { key: string; scenario: string },
): string {
  if (format === 'json') return JSON.stringify({ time: at.toISOString(), ...record, ...who })
  return `${time(at)} ${text(record)}  key ${who.key} scenario ${who.scenario}`
}

/** What the log may have queued for a reader that does not keep up (a pipe nobody reads, a paused pager). */
export const MAX_QUEUED_LOG_BYTES = 1024 * 1024

/**
 * Lines for an output stream (process.stdout), written once per turn of the event loop: a write to a pipe is a
 * synchronous system call, so a busy server writes its lines together rather than one call each. When the reader
 * does not keep up, Node queues what it cannot write yet in the process's memory; past `maxQueuedBytes` lines are
 * dropped instead (a log must not grow the server without bound), and once the queue drains a line says how many.
 */
export function batchedOutput(
  out: NodeJS.WritableStream & { readonly writableLength: number },
  format: LogFormat,
  maxQueuedBytes = MAX_QUEUED_LOG_BYTES,
): { write(line: string): void; flush(): void } {
  let pending: string[] = []
  let scheduled = false
  let dropped = 0
  let waitingForDrain = false
  const droppedLine = () => {
    const message = `${dropped} log lines dropped: the output did not keep up`
    return format === 'json'
      ? JSON.stringify({ time: new Date().toISOString(), type: 'dropped', lines: dropped, message })
      : `${time(new Date())} (${message})`
  }
  const flush = () => {
    scheduled = false
    if (pending.length === 0) return
    if (out.writableLength > maxQueuedBytes) {
      dropped += pending.length
      pending = []
      if (!waitingForDrain) {
        waitingForDrain = true
        out.once('drain', () => {
          waitingForDrain = false
          if (!scheduled) {
            scheduled = true
            setImmediate(flush)
          }
        })
      }
      return
    }
    if (dropped) {
      pending.unshift(droppedLine())
      dropped = 0
    }
    const text = `${pending.join('\n')}\n`
    pending = []
    out.write(text)
  }
  return {
    write(line) {
      pending.push(line)
      if (!scheduled) {
        scheduled = true
        setImmediate(flush)
      }
    },
    flush,
  }
}

/** Prints the sandbox's activity as it happens; returns the function that stops it (and writes what is left). */
export function attachTerminalLog(sandbox: Sandbox, options: TerminalLogOptions): () => void {
  const stdout = options.write ? null : batchedOutput(process.stdout, options.format)
  const write = options.write ?? stdout!.write
  const now = options.now ?? (() => new Date())
  const print = (record: LogRecord, key: string, scenario: string) =>
    write(formatLine(options.format, now(), record, { key, scenario }))
  const untap = sandbox.shared.journal.tap((tenant, entry) =>
    print(journalRecord(entry), tenant, entry.scenario),
  )
  const unwatch = sandbox.onPayment((world: World, request, payment) =>
    print(paymentRecord(request, payment), world.tenant, world.scenario),
  )
  return () => {
    untap()
    unwatch()
    stdout?.flush()
  }
}
