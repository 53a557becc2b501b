import { ContractFunctionRevertedError, encodeErrorResult, parseAbi } from 'viem'
import { describe, expect, it } from 'vitest'
import { decodeRevert, revertReason, serialQueue } from './sender.ts'

const abi = parseAbi(['error NotDueYet(uint256 due, uint256 now)', 'function trigger()'])

describe('serialQueue', () => {
  it('runs tasks one at a time in order, and a failure does not block the next', async () => {
    const enqueue = serialQueue()
    const log: string[] = []
    const task =
      (name: string, ms: number, fail = false) =>
      () =>
        new Promise<string>((resolve, reject) => {
          log.push(`start ${name}`)
          setTimeout(() => {
            log.push(`end ${name}`)
            fail ? reject(new Error(name)) : resolve(name)
          }, ms)
        })
    const results = await Promise.allSettled([
      enqueue(task('a', 20)),
      enqueue(task('b', 1, true)),
      enqueue(task('c', 1)),
    ])
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c'])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
  })
})

describe('revert decoding', () => {
  it("names a contract's custom error with its arguments", () => {
    const data = encodeErrorResult({ abi, errorName: 'NotDueYet', args: [5n, 3n] })
    const error = new ContractFunctionRevertedError({ abi, data, functionName: 'trigger' })
    expect(decodeRevert(error)).toMatchObject({ errorName: 'NotDueYet', args: [5n, 3n], fromChain: true })
    expect(revertReason(error)).toBe('NotDueYet(5, 3)')
  })
  it('falls back to the message of any other error', () => {
    expect(decodeRevert(new Error('socket hang up'))).toEqual({ message: 'socket hang up', fromChain: false })
    expect(revertReason('boom')).toBe('boom')
  })
})
