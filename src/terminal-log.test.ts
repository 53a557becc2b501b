// The terminal log's output when its reader does not keep up (a pipe nobody reads): what Node queues for it stays
// bounded, and once the reader catches up one line says how many lines were dropped.
import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { batchedOutput } from './terminal-log.ts'

/** A stream whose reader is stuck until `release()`: every write after the first waits in Node's queue. */
function stuckOutput() {
  const written: string[] = []
  let stuck = true
  const waiting: (() => void)[] = []
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      written.push(chunk.toString())
      if (stuck) waiting.push(callback)
      else callback()
    },
  })
  return {
    stream,
    written,
    release() {
      stuck = false
      for (const callback of waiting.splice(0)) callback()
    },
  }
}

const turn = () => new Promise((r) => setImmediate(r))
const line = (i: number) =>
  `12:00:00.000 GET    /v2/request/${i} 200 1 ms  key k scenario default ${'x'.repeat(100)}`

describe('terminal log output', () => {
  it('keeps at most its bound queued for a stuck reader, then says how many lines it dropped', async () => {
    const out = stuckOutput()
    const log = batchedOutput(out.stream, 'text', 64 * 1024)
    // 20,000 lines of about 170 bytes (3.4 MB) in 200 turns of the event loop
    for (let t = 0; t < 200; t++) {
      for (let i = 0; i < 100; i++) log.write(line(t * 100 + i))
      await turn()
      expect(out.stream.writableLength).toBeLessThan(64 * 1024 + 100 * 200)
    }
    out.release()
    await turn()
    await turn()
    log.write(line(99_999))
    await turn()
    const text = out.written.join('')
    const kept = text.split('\n').filter((l) => l.includes('/v2/request/')).length
    const note = /\((\d+) log lines dropped: the output did not keep up\)/.exec(text)
    expect(note).not.toBeNull()
    expect(kept + Number(note![1])).toBe(20_001)
    expect(text.endsWith(`${line(99_999)}\n`)).toBe(true)
  })

  it('writes every line when the reader keeps up', async () => {
    const written: string[] = []
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        written.push(chunk.toString())
        callback()
      },
    })
    const log = batchedOutput(stream, 'json', 64 * 1024)
    for (let t = 0; t < 50; t++) {
      for (let i = 0; i < 100; i++) log.write(line(t * 100 + i))
      await turn()
    }
    const lines = written.join('').split('\n').filter(Boolean)
    expect(lines).toHaveLength(5000)
    expect(lines.some((l) => l.includes('dropped'))).toBe(false)
  })
})
