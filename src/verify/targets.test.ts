import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { httpTarget, MAX_BODY_BYTES, paced } from './targets.ts'
import type { Target } from './types.ts'

describe('paced', () => {
  it('spaces the calls to a target at the given rate', async () => {
    const times: number[] = []
    const target: Target = async () => {
      times.push(performance.now())
      return { status: 200, headers: {}, body: '' }
    }
    // 100 calls 5 ms apart: a pacer that measured on the whole-millisecond clock let some through 4.x ms apart
    const slow = paced(target, 200)
    await Promise.all(Array.from({ length: 100 }, () => slow({ method: 'GET', url: '/', headers: {} })))
    expect(times).toHaveLength(100)
    // the target records its start a few microseconds after the pacer took it: 5 ms less that
    const gaps = times.slice(1).map((t, i) => t - times[i]!)
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(4.9)
  })
})

describe('httpTarget', () => {
  it('reads at most MAX_BODY_BYTES of an answer and stops reading an endless one', async () => {
    const chunk = Buffer.alloc(1 << 20, 'a')
    const server = createServer((_, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' })
      const more = () => {
        while (res.write(chunk)) {}
      }
      res.on('drain', more)
      res.on('error', () => {})
      more()
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const target = httpTarget(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)
      const answer = await target({ method: 'GET', url: '/', headers: {} })
      expect(answer.status).toBe(200)
      expect(answer.body.length).toBe(MAX_BODY_BYTES)
    } finally {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })
})
