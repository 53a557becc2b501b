// The detector reads through the lean JSON-RPC client: it tells a block out of range (read again at once) from the
// node's message in JsonRpcError, and a chain that is restarting from Node's own connection errors (not logged).
import { expect, it } from 'vitest'
import { isConnectionError, isOutOfRange } from './detector.ts'
import { JsonRpcError } from './json-rpc.ts'

it('tells a block out of range from the JSON-RPC error the lean client gives', () => {
  expect(
    isOutOfRange(
      new JsonRpcError('eth_getLogs', -32000, 'BlockOutOfRangeError: block height is 5 but requested was 7'),
    ),
  ).toBe(true)
  expect(isOutOfRange(new JsonRpcError('eth_getLogs', -32000, 'execution reverted'))).toBe(false)
  expect(
    isOutOfRange(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8545'), { code: 'ECONNREFUSED' })),
  ).toBe(false)
})

it("tells a chain that is not answering from Node's own errors", () => {
  expect(
    isConnectionError(
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8545'), { code: 'ECONNREFUSED' }),
    ),
  ).toBe(true)
  expect(isConnectionError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))).toBe(true)
  expect(
    isConnectionError(new JsonRpcError('eth_getLogs', -32000, 'BlockOutOfRangeError: block height is 5')),
  ).toBe(false)
})
