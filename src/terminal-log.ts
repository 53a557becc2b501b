// The server's terminal log, as anvil and `stripe listen` print theirs: one line per API call (method, path,
// status, ms, key, scenario), per event, per payment the detectors record (transaction hash, reference) and per
// webhook attempt (URL, status, retry count). Text for people, or one JSON object per line (`--log-format json`).
// It reads the journal of every key through one tap (entries as recorded: call bodies are never read here) and
// the detectors' payments; formatting a short line is all it adds to a call.

import { fstatSync, openSync } from 'node:fs'
import sonicBoom from 'sonic-boom'
import type { World } from './contract/world.ts'
import type { JournalEntry } from './control/journal.ts'
import type { DetectedPayment, RequestRecord } from './resources/requests/index.ts'
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
  | { type: 'call'; method: string; path: string; status: number; ms: number; fault?: string; hint?: string }
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
        ...(entry.hint ? { hint: entry.hint } : {}),
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

/** A call's columns before its duration: method (padded), path, status. */
function callHead(method: string, path: string, status: number): string {
  return `${method.padEnd(6)} ${path} ${status} `
}

/** A call's notes after its duration: the fault a scenario made, the hint of an answer. */
function callNotes(fault: string | undefined, hint: string | undefined): string {
  return `${fault ? ` (fault: ${fault})` : ''}${hint ? ` (hint: ${hint})` : ''}`
}

/** A call's columns (its record's; the log's fast path joins the same pieces straight from a journal entry). */
function callText(
  method: string,
  path: string,
  status: number,
  ms: number,
  fault: string | undefined,
  hint?: string,
): string {
  return `${callHead(method, path, status)}${ms} ms${callNotes(fault, hint)}`
}

/**
 * The text as one flat string: V8 keeps a joined string as a tree of its pieces, and a piece kept to begin many
 * lines would be walked again in each (a round trip through UTF-8 keeps every character a log line can hold).
 */
const flat = (text: string) => Buffer.from(text, 'utf8').toString('utf8')

function text(record: LogRecord): string {
  switch (record.type) {
    case 'call':
      return callText(record.method, record.path, record.status, record.ms, record.fault, record.hint)
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

// a CommonJS module: Node's ESM sees only its default export, whose `SonicBoom` is the class itself
const { SonicBoom } = sonicBoom

/** What the log may hold for a reader that does not keep up (a pipe nobody reads, a paused pager). */
export const MAX_QUEUED_LOG_BYTES = 1024 * 1024

/** Where the log's lines go: `write` takes one line (no newline); `flush` resolves once what is held is written. */
export interface LogOutput {
  write(line: string): void
  flush(): Promise<void>
}

/**
 * Lines are held this long (or until LOG_BATCH_BYTES wait) and written together: one write per batch instead of
 * one per turn of the event loop (each write is a hand-off to the thread pool and back, a few µs of the server's
 * time under load); a person at a terminal does not see 50 ms.
 */
export const LOG_BATCH_MS = 50
/** What a batch holds at most before it is written at the end of the turn (well under any queue bound). */
export const LOG_BATCH_BYTES = 16 * 1024

/** How long an exit waits for the log's output to take what is left. */
const FLUSH_AT_EXIT_MS = 2000

/**
 * Lines for a file descriptor (1: standard output, a file or a pipe under Docker), written off the request path:
 * the lines of up to LOG_BATCH_MS (at most about LOG_BATCH_BYTES) are added to one string as they come (V8 keeps
 * the additions as pieces and copies them once, when the string is written) and handed to sonic-boom (pino's writer),
 * which writes with asynchronous `fs.write` on libuv's thread pool, one write at a time, what arrives meanwhile
 * joining the next one. A call never waits for the terminal, a file or a pipe. When the reader does not keep up,
 * at most `maxQueuedBytes` wait; lines past that are dropped (a log must not grow the server without bound), and
 * the next line that fits is preceded by one saying how many were dropped.
 */
export function fdOutput(fd: number, format: LogFormat, maxQueuedBytes = MAX_QUEUED_LOG_BYTES): LogOutput {
  let closing = false
  let broken = false
  const boom = new SonicBoom({
    fd,
    sync: false,
    maxLength: maxQueuedBytes,
    // a full pipe is retried (100 ms later) while running; at exit, what it cannot take is given up
    retryEAGAIN: () => !closing,
  })
  // a reader that went away (EPIPE) or a closed descriptor ends the log, never the server
  boom.on('error', () => {
    broken = true
  })
  // the lines waiting, each with its newline
  let pending = ''
  let pendingLines = 0
  let pendingBytes = 0
  let timer: NodeJS.Timeout | undefined
  let immediate: NodeJS.Immediate | undefined
  let dropped = 0
  let refused = false
  boom.on('drop', (chunk: string) => {
    refused = true
    let lines = 0
    for (let i = chunk.indexOf('\n'); i !== -1; i = chunk.indexOf('\n', i + 1)) lines++
    dropped += lines
  })
  const droppedLine = (n: number) => {
    const message = `${n} log lines dropped: the output did not keep up`
    return format === 'json'
      ? JSON.stringify({ time: new Date().toISOString(), type: 'dropped', lines: n, message })
      : `${time(new Date())} (${message})`
  }
  const flush = () => {
    if (timer !== undefined) clearTimeout(timer)
    if (immediate !== undefined) clearImmediate(immediate)
    timer = immediate = undefined
    if (pendingLines === 0 || broken) return
    const text = pending
    const lines = pendingLines
    pending = ''
    pendingLines = 0
    pendingBytes = 0
    if (!dropped) {
      boom.write(text)
      return
    }
    // the note goes with the lines of this turn, in one write: both fit, or both are counted as dropped
    const n = dropped
    refused = false
    boom.write(`${droppedLine(n)}\n${text}`)
    dropped = refused ? n + lines : 0
  }
  return {
    write(line) {
      pending += `${line}\n`
      pendingLines++
      pendingBytes += line.length + 1
      if (pendingBytes >= LOG_BATCH_BYTES) immediate ??= setImmediate(flush)
      else if (timer === undefined && immediate === undefined) {
        timer = setTimeout(flush, LOG_BATCH_MS)
        // the log never keeps the process alive: an exit flushes it (`flush()` below)
        timer.unref()
      }
    },
    flush() {
      flush()
      // lines dropped since the last that fitted are still counted at exit
      if (dropped && !broken) {
        boom.write(`${droppedLine(dropped)}\n`)
        dropped = 0
      }
      if (broken) return Promise.resolve()
      return new Promise<void>((resolve) => {
        // a reader that is stuck at exit gets FLUSH_AT_EXIT_MS; what it did not take is lost, the exit goes on
        const timer = setTimeout(() => {
          closing = true
          resolve()
        }, FLUSH_AT_EXIT_MS)
        timer.unref()
        boom.flush(() => {
          clearTimeout(timer)
          resolve()
        })
      })
    },
  }
}

/**
 * The descriptor the log writes to. A pipe (Docker, `| tee`) gets a descriptor of its own, opened in blocking
 * mode on Linux: Node puts fd 1 of a pipe in non-blocking mode, where a write to a full pipe fails with EAGAIN and
 * sonic-boom waits 100 ms before trying again; a blocking write simply waits on the thread pool, off the request path,
 * for the reader. Files and terminals use fd 1 itself.
 */
function standardOutput(): number {
  try {
    if (process.platform === 'linux' && fstatSync(1).isFIFO()) return openSync('/dev/stdout', 'a')
  } catch {
    // not reopenable here: fd 1 as it is
  }
  return 1
}

/** Prints the sandbox's activity as it happens; returns the function that stops it (resolved once what is left is written). */
export function attachTerminalLog(sandbox: Sandbox, options: TerminalLogOptions): () => Promise<void> {
  const stdout = options.write ? null : fdOutput(standardOutput(), options.format)
  const write = options.write ?? stdout!.write
  const now = options.now ?? (() => new Date())
  const print = (record: LogRecord, key: string, scenario: string) =>
    write(formatLine(options.format, now(), record, { key, scenario }))
  // A text line per API call (nearly every line) is written straight from the entry: no record object, no Date.
  // What repeats from one call to the next is kept as one flat string: the time and the call's method, path and
  // status (remade once a millisecond, or when the call differs), and its key and scenario. A line is then those
  // and its duration, four pieces for V8 to walk when the batch's string is copied into one
  // (docs/decisions/2026-12-07-fewer-pieces-per-call.md).
  const nowMs = options.now ? () => options.now!().getTime() : Date.now
  let lastMs = Number.NaN
  let lastTime = ''
  let headMethod = ''
  let headPath = ''
  let headStatus = 0
  let head = ''
  let tailKey = ''
  let tailScenario = ''
  let tail = ''
  const untap = sandbox.shared.events.on('journal', (tenant, entry) => {
    if (options.format !== 'text' || entry.type !== 'call')
      return print(journalRecord(entry), tenant, entry.scenario)
    const ms = nowMs()
    if (
      ms !== lastMs ||
      entry.method !== headMethod ||
      entry.path !== headPath ||
      entry.status !== headStatus
    ) {
      if (ms !== lastMs) {
        lastMs = ms
        lastTime = time(new Date(ms))
      }
      headMethod = entry.method
      headPath = entry.path
      headStatus = entry.status
      head = flat(`${lastTime} ${callHead(entry.method, entry.path, entry.status)}`)
    }
    if (tenant !== tailKey || entry.scenario !== tailScenario) {
      tailKey = tenant
      tailScenario = entry.scenario
      tail = flat(`  key ${tenant} scenario ${entry.scenario}`)
    }
    const notes = entry.fault || entry.hint ? callNotes(entry.fault, entry.hint) : ''
    write(`${head}${entry.durationMs} ms${notes}${tail}`)
  })
  const unwatch = sandbox.shared.events.on('payment', (world: World, request, payment) => {
    try {
      print(paymentRecord(request, payment), world.tenant, world.scenario)
    } catch (error) {
      sandbox.shared.log('a payment listener failed', error)
    }
  })
  return () => {
    untap()
    unwatch()
    return stdout ? stdout.flush() : Promise.resolve()
  }
}
