// Recordings of verify runs: a recorder keeps both sides of every call (masked) and writes them as HAR files; a
// replay target answers calls from a recording, matched by method, path and query, in the order they were recorded.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  type HarEntry,
  HarError,
  MAX_RECORDED_ENTRIES,
  maskExchange,
  type RecordedExchange,
  type RecordingMeta,
  readHar,
  toEntry,
  toHar,
} from './har.ts'
import type { Exchange, Target } from './types.ts'

/** Keeps the exchanges of a verify run, each side apart, masked as they arrive. */
export class Recorder {
  private readonly entries = { real: [] as HarEntry[], sandbox: [] as HarEntry[] }

  /** `secrets`: values masked wherever they appear (the keys and client IDs of both sides). */
  constructor(
    private readonly meta: { real: RecordingMeta; sandbox: RecordingMeta },
    private readonly secrets: string[],
  ) {}

  /** The `onExchange` of a verify run. */
  readonly add = (side: 'real' | 'sandbox', flow: string, step: string, exchange: Exchange): void => {
    if (this.entries[side].length >= MAX_RECORDED_ENTRIES) return
    const masked: RecordedExchange = { ...maskExchange(exchange, this.secrets), flow, step }
    this.entries[side].push(toEntry(this.meta[side].base, masked))
  }

  /** Writes `<dir>/real.har` and `<dir>/sandbox.har`; answers their paths. */
  write(dir: string): string[] {
    mkdirSync(dir, { recursive: true })
    return (['real', 'sandbox'] as const).map((side) => {
      const file = join(dir, `${side}.har`)
      const har = toHar(this.entries[side], this.meta[side], `request-sandbox verify: the ${side} side`)
      writeFileSync(file, `${JSON.stringify(har, null, 2)}\n`)
      return file
    })
  }
}

/** A call the recording has no (more) answer to. */
export class NotRecorded extends Error {}

const callKey = (method: string, url: string): string => {
  const parsed = new URL(url, 'http://recording.invalid')
  parsed.searchParams.sort()
  return `${method.toUpperCase()} ${parsed.pathname}${parsed.search}`
}

/**
 * A Target answering from recorded exchanges: the first not yet used exchange with the same method, path and query
 * (query parameters in any order). A call the recording lacks throws NotRecorded naming it.
 */
export function replayTarget(exchanges: Exchange[]): Target {
  const queues = new Map<string, Exchange['response'][]>()
  for (const { request, response } of exchanges) {
    const key = callKey(request.method, request.url)
    queues.set(key, [...(queues.get(key) ?? []), response])
  }
  return async (request) => {
    const key = callKey(request.method, request.url)
    const response = queues.get(key)?.shift()
    if (!response) throw new NotRecorded(`the recording has no answer to ${key}`)
    return { status: response.status, headers: { ...response.headers }, body: response.body }
  }
}

/** The recording a replay reads: a .har file, or a directory with its `real.har` (or a single .har file). */
export function loadRecording(path: string): {
  file: string
  meta?: RecordingMeta
  exchanges: RecordedExchange[]
} {
  let file = path
  if (statSync(path).isDirectory()) {
    const hars = readdirSync(path).filter((f) => f.endsWith('.har'))
    const pick = hars.includes('real.har') ? 'real.har' : hars.length === 1 ? hars[0] : undefined
    if (!pick)
      throw new HarError(
        `${path} holds ${hars.length ? hars.join(', ') : 'no .har file'}: name one, or keep a real.har there`,
      )
    file = join(path, pick)
  }
  return { file, ...readHar(readFileSync(file, 'utf8')) }
}
