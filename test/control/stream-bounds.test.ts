// Streams a caller holds open are bounded: per key and kind (--max-streams: the live journal of /__sandbox/stream,
// the listen clients of /__sandbox/webhooks/listen, every scenario of the key counted under it) and in all
// (--max-streams-total), answering 429 in the service's error shape naming the bound and its flag; a stream whose
// client goes away gives its place back. A listener that cannot accept (no file descriptor left) keeps serving.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { StreamSlots } from '../../src/control/stream-slots.ts'
import { type RunningServer, startServer } from '../../src/server.ts'
import { waitFor } from '../support/wait.ts'

let server: RunningServer
beforeAll(async () => {
  server = await startServer({ chain: false, maxStreamsPerKey: 3, maxStreamsTotal: 5 })
})
afterAll(async () => server?.close())

/** Opens a stream of `key`; a 200 is read up to its `ready` event (then it is open on the server). */
async function open(path: string, key: string, headers: Record<string, string> = {}) {
  const stop = new AbortController()
  const response = await fetch(`${server.url}${path}`, {
    headers: { 'x-api-key': key, ...headers },
    signal: stop.signal,
  })
  if (response.status === 200) {
    const reader = response.body!.getReader()
    const { value } = await reader.read()
    expect(new TextDecoder().decode(value)).toContain('ready')
  }
  return { response, close: () => stop.abort() }
}

/** The streams the sandbox counts open. */
const openStreams = () => server.sandbox.shared.streams.total

describe('stream bounds', () => {
  it('answers the N+1th live stream of a key 429 naming --max-streams, while another key still opens one; closing frees the places', async () => {
    const mine = [] as Awaited<ReturnType<typeof open>>[]
    for (let i = 0; i < 3; i++) {
      const stream = await open('/__sandbox/stream', 'stream-key-a')
      expect(stream.response.status).toBe(200)
      mine.push(stream)
    }
    const over = await open('/__sandbox/stream', 'stream-key-a')
    expect(over.response.status).toBe(429)
    const body = (await over.response.json()) as Record<string, unknown>
    expect(body).toMatchObject({ statusCode: 429, error: 'Too Many Requests' })
    expect(body.message).toContain('at most 3 live journal streams')
    expect(body.message).toContain('--max-streams')
    expect(over.response.headers.get('retry-after')).toBe('5')
    // another scenario of the same key is the same key
    const otherScenario = await open('/__sandbox/stream', 'stream-key-a', {
      'x-sandbox-scenario': 'kyc-approved',
    })
    expect(otherScenario.response.status).toBe(429)
    // another key still opens one
    const other = await open('/__sandbox/stream', 'stream-key-b')
    expect(other.response.status).toBe(200)
    other.close()
    for (const stream of mine) stream.close()
    await waitFor(() => (openStreams() === 0 ? true : undefined), {
      timeoutMs: 5_000,
      what: 'streams given back',
    })
    const again = await open('/__sandbox/stream', 'stream-key-a')
    expect(again.response.status).toBe(200)
    again.close()
    await waitFor(() => (openStreams() === 0 ? true : undefined), {
      timeoutMs: 5_000,
      what: 'streams given back',
    })
  })

  it('bounds listen clients per key across scenarios, and gives a place back when a client disconnects', async () => {
    const first = await open('/__sandbox/webhooks/listen', 'listen-key')
    const second = await open('/__sandbox/webhooks/listen', 'listen-key', {
      'x-sandbox-scenario': 'kyc-approved',
    })
    const third = await open('/__sandbox/webhooks/listen', 'listen-key')
    for (const s of [first, second, third]) expect(s.response.status).toBe(200)
    const over = await open('/__sandbox/webhooks/listen', 'listen-key', {
      'x-sandbox-scenario': 'kyc-approved',
    })
    expect(over.response.status).toBe(429)
    expect(((await over.response.json()) as { message: string }).message).toMatch(
      /at most 3 listen clients .*--max-streams/,
    )
    // the kinds are counted apart: the key's live journal stream still opens
    const journal = await open('/__sandbox/stream', 'listen-key')
    expect(journal.response.status).toBe(200)
    journal.close()
    second.close()
    await waitFor(
      async () => {
        const again = await open('/__sandbox/webhooks/listen', 'listen-key')
        if (again.response.status !== 200) return undefined
        again.close()
        return true
      },
      { timeoutMs: 5_000, what: 'a freed listen place' },
    )
    first.close()
    third.close()
    await waitFor(() => (openStreams() === 0 ? true : undefined), {
      timeoutMs: 5_000,
      what: 'streams given back',
    })
  })

  it('answers 429 naming --max-streams-total once every key together holds the sandbox-wide bound', async () => {
    const held = [] as Awaited<ReturnType<typeof open>>[]
    for (const key of ['total-a', 'total-a', 'total-b', 'total-c'])
      held.push(await open('/__sandbox/stream', key))
    held.push(await open('/__sandbox/webhooks/listen', 'total-d'))
    for (const s of held) expect(s.response.status).toBe(200)
    const over = await open('/__sandbox/stream', 'total-e')
    expect(over.response.status).toBe(429)
    expect(((await over.response.json()) as { message: string }).message).toContain('--max-streams-total')
    held.pop()!.close()
    await waitFor(
      async () => {
        const again = await open('/__sandbox/stream', 'total-e')
        if (again.response.status !== 200) return undefined
        again.close()
        return true
      },
      { timeoutMs: 5_000, what: 'a freed place' },
    )
    for (const s of held) s.close()
    await waitFor(() => (openStreams() === 0 ? true : undefined), {
      timeoutMs: 5_000,
      what: 'streams given back',
    })
  })
})

describe('stream bounds under concurrent opens', () => {
  it('admits exactly the bound when many streams of a key open at once, with --state-dir', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stream-bounds-'))
    const durable = await startServer({ chain: false, stateDir: dir, maxStreamsPerKey: 3 })
    const streams: AbortController[] = []
    try {
      const statuses = await Promise.all(
        Array.from({ length: 12 }, async () => {
          const stop = new AbortController()
          streams.push(stop)
          const response = await fetch(`${durable.url}/__sandbox/stream`, {
            headers: { 'x-api-key': 'concurrent-key' },
            signal: stop.signal,
          })
          return response.status
        }),
      )
      expect(statuses.filter((s) => s === 200)).toHaveLength(3)
      expect(statuses.filter((s) => s === 429)).toHaveLength(9)
    } finally {
      for (const stop of streams) stop.abort()
      await durable.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("holds an admitted stream's place until it opens, and gives it back when it never does", () => {
    vi.useFakeTimers()
    try {
      const slots = new StreamSlots({ perKey: 1, total: 10 })
      slots.bounded('k', 'stream', { open: () => () => {} })
      expect(() => slots.admit('k', 'stream')).toThrow(/at most 1 live journal stream/)
      vi.advanceTimersByTime(30_000)
      expect(slots.total).toBe(0)
      const stop = slots.bounded('k', 'stream', { open: () => () => {} }).open(
        () => {},
        () => {},
      )
      expect(slots.total).toBe(1)
      stop()
      stop()
      expect(slots.total).toBe(0)
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('a listener out of file descriptors', () => {
  it('keeps serving when accepting fails (EMFILE), reporting it once in a while', async () => {
    const reported: string[] = []
    const own = await startServer({ chain: false, log: (message) => reported.push(message) })
    try {
      const emfile = () => Object.assign(new Error('accept EMFILE'), { code: 'EMFILE', syscall: 'accept' })
      // what Node does when accept fails: an 'error' on the server (unheard, it would end the process)
      for (let i = 0; i < 3; i++) expect(() => own.server.emit('error', emfile())).not.toThrow()
      expect(own.server.listening).toBe(true)
      const health = await fetch(`${own.url}/__sandbox/health`)
      expect(health.status).toBe(200)
      expect(reported).toHaveLength(1)
      expect(reported[0]).toContain('EMFILE: no file descriptor left')
    } finally {
      await own.close()
    }
  })
})
