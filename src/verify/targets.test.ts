import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { httpTarget, MAX_BODY_BYTES, paced } from './targets.ts'
import type { Target } from './types.ts'

describe('paced', () => {
  it('spaces the calls to a target at the given rate', async () => {
    const times: number[] = []
    const target: Target = async () => {
      times.push(Date.now())
      return { status: 200, headers: {}, body: '' }
    }
    const slow = paced(target, 10)
    await Promise.all(Array.from({ length: 5 }, () => slow({ method: 'GET', url: '/', headers: {} })))
    expect(times).toHaveLength(5)
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(100)
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
