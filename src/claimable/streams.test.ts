import { describe, expect, it } from 'vitest'
import type { ResponseStream } from '../contract/neutral.ts'
import { ClaimedStreams } from './streams.ts'

/** A stream that counts its opens and stops; `fail` makes its opening throw. */
function source(fail = false) {
  const seen = { opened: 0, stopped: 0 }
  const stream: ResponseStream = {
    open: () => {
      seen.opened++
      if (fail) throw new Error('the source could not open')
      return () => {
        seen.stopped++
      }
    },
  }
  return { stream, seen }
}

describe('ClaimedStreams', () => {
  it("ends a key's open streams once, and only that key's", () => {
    const streams = new ClaimedStreams()
    const a = source()
    const b = source()
    const ended: string[] = []
    const stopA = streams
      .hold('k1', a.stream, () => false)
      .open(
        () => {},
        () => {
          ended.push('a')
          stopA()
        },
      )
    streams
      .hold('k2', b.stream, () => false)
      .open(
        () => {},
        () => ended.push('b'),
      )
    expect([streams.count('k1'), streams.count('k2')]).toEqual([1, 1])
    streams.end('k1')
    streams.end('k1')
    expect(ended).toEqual(['a'])
    expect(a.seen).toEqual({ opened: 1, stopped: 1 })
    expect([streams.count('k1'), streams.count('k2')]).toEqual([0, 1])
  })

  it('ends at once, sending nothing, a stream opening after its key expired, its source opened and stopped', () => {
    const streams = new ClaimedStreams()
    const a = source()
    let ended = 0
    streams
      .hold('k1', a.stream, () => true)
      .open(
        () => {},
        () => ended++,
      )
    expect(ended).toBe(1)
    expect(a.seen).toEqual({ opened: 1, stopped: 1 })
    expect(streams.count('k1')).toBe(0)
  })

  it('holds nothing of a stream whose opening failed', () => {
    const streams = new ClaimedStreams()
    const held = streams.hold('k1', source(true).stream, () => false)
    let ended = 0
    expect(() =>
      held.open(
        () => {},
        () => ended++,
      ),
    ).toThrow(/could not open/)
    expect(streams.count('k1')).toBe(0)
    // the key's expiry does not end a response that never opened
    streams.end('k1')
    expect(ended).toBe(0)
  })
})
