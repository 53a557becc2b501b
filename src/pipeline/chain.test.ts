// The middlewares stage runs the middlewares outermost first around the rest of the call; a middleware may answer
// without calling next, and sees the answer of what runs inside it.
import { describe, expect, it } from 'vitest'
import type { CallInfo, Middleware } from '../contract/middleware.ts'
import type { NeutralResponse } from '../contract/neutral.ts'
import { middlewareChain } from './chain.ts'

const call = {} as CallInfo
const rest = (order: string[]) => async (): Promise<NeutralResponse> => {
  order.push('rest')
  return { status: 200, headers: {}, body: undefined }
}
const named =
  (name: string, order: string[]): Middleware =>
  async (_call, next) => {
    order.push(`${name} in`)
    const response = await next()
    order.push(`${name} out ${response.status}`)
    return response
  }

describe('middleware chain', () => {
  it('runs the middlewares in their order around the rest, each once, and a chain again per call', async () => {
    const order: string[] = []
    const chain = middlewareChain([named('a', order), named('b', order)])
    await chain(call, rest(order))
    await chain(call, rest(order))
    const once = ['a in', 'b in', 'rest', 'b out 200', 'a out 200']
    expect(order).toEqual([...once, ...once])
  })

  it('lets a middleware answer without running the rest', async () => {
    const order: string[] = []
    const refuse: Middleware = async () => ({ status: 429, headers: {}, body: undefined })
    const chain = middlewareChain([named('a', order), refuse, named('b', order)])
    expect((await chain(call, rest(order))).status).toBe(429)
    expect(order).toEqual(['a in', 'a out 429'])
  })

  it('runs the rest alone when there is no middleware', async () => {
    const order: string[] = []
    expect((await middlewareChain([])(call, rest(order))).status).toBe(200)
    expect(order).toEqual(['rest'])
  })
})
