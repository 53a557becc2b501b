import { keccak256 } from 'viem'
import { describe, expect, it } from 'vitest'
import { createWorld } from '../../store/world.ts'
import { PaymentReferenceIndex } from './reference-index.ts'

const log = () => {}

describe('PaymentReferenceIndex', () => {
  it('finds requests of any world by the log topic of their reference (keccak256 of the 8 bytes)', () => {
    const index = new PaymentReferenceIndex()
    const a = createWorld('a', 'default', log)
    const b = createWorld('b', 'default', log)
    index.add('0x0123456789ABCDEF', a, '01aa')
    index.add('0x0123456789abcdef', b, '01bb')
    const topic = keccak256('0x0123456789abcdef')
    expect(index.has(topic)).toBe(true)
    expect(index.lookup(topic, new Set([a, b]))).toEqual([
      { world: a, requestId: '01aa' },
      { world: b, requestId: '01bb' },
    ])
    a.clock.dispose()
    b.clock.dispose()
  })

  it('forgets requests of worlds that are gone', () => {
    const index = new PaymentReferenceIndex()
    const gone = createWorld('gone', 'default', log)
    index.add('0x0123456789abcdef', gone, '01aa')
    const topic = PaymentReferenceIndex.hashOf('0x0123456789abcdef')
    expect(index.lookup(topic, new Set())).toEqual([])
    expect(index.has(topic)).toBe(false)
    gone.clock.dispose()
  })
})
