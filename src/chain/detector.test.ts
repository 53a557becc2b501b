// A scan reads the receipts and blocks of its transfers at once: when the node fails them all (anvil restarting
// mid-scan), the first failure ends the scan and every other read's failure is handled too, never an unhandled
// rejection (which ends a Node process).
import { encodeAbiParameters, type Hex, keccak256, parseAbiParameters } from 'viem'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { type DetectorOptions, PaymentDetector } from './detector.ts'
import { ERC20_TRANSFER_TOPIC, type ProxyKind } from './payment-logs.ts'

const feeProxy = '0x399f5ee127ce7432e4921a61b8cf52b0af52cbfe'
const word = (n: number) => `0x${n.toString(16).padStart(64, '0')}` as Hex
const reference = keccak256('0x0123456789abcdef')

// the errors the node below throws, told apart from any other file's sharing the worker
const refused = new WeakSet<object>()
const unhandled: unknown[] = []
const onUnhandled = (reason: unknown) => {
  if (reason && typeof reason === 'object' && refused.has(reason)) unhandled.push(reason)
}
beforeEach(() => {
  process.on('unhandledRejection', onUnhandled)
})
afterEach(() => {
  process.off('unhandledRejection', onUnhandled)
})

it('handles every failed read of a scan, not only the first it waits for', async () => {
  const reads: { method: string; params: unknown[] }[] = []
  const request = async ({ method, params }: { method: string; params: unknown[] }) => {
    reads.push({ method, params })
    if (method === 'eth_getBlockByNumber' && params[0] === 'latest')
      return { number: '0x5', hash: word(99), parentHash: word(98), timestamp: '0x1' }
    if (method === 'eth_getLogs')
      // three transfers in three transactions, in blocks 5, 4 and 5
      return [5, 4, 5].map((block, i) => ({
        address: feeProxy,
        topics: [ERC20_TRANSFER_TOPIC, reference],
        data: encodeAbiParameters(parseAbiParameters('uint256'), [1n]),
        blockNumber: `0x${block.toString(16)}`,
        blockHash: word(90 + block),
        transactionHash: word(i + 1),
        logIndex: `0x${i.toString(16)}`,
        removed: false,
      }))
    const error = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8545'), { code: 'ECONNREFUSED' })
    refused.add(error)
    throw error
  }
  const logged: string[] = []
  let applied = 0
  const options = {
    chain: { network: 'sepolia', chainId: 11155111, rpcUrl: 'http://127.0.0.1:1', publicClient: { request } },
    proxies: () => new Map<string, ProxyKind>([[feeProxy, 'erc20-fee']]),
    sink: { watches: () => true, apply: () => void applied++, rollback: () => {} },
    log: (message: string) => logged.push(message),
  } as unknown as DetectorOptions
  const detector = new PaymentDetector(options)
  await detector.sync()
  // the reads that were under way when the first failed settle on the next turns
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve))
  expect(reads.filter((r) => r.method === 'eth_getTransactionReceipt')).toHaveLength(3)
  expect(unhandled).toEqual([])
  // a node that is not answering is not logged as a failure
  expect(logged).toEqual([])
  // the failed scan recorded nothing and moved past nothing: the next one reads the same blocks again
  expect(applied).toBe(0)
  await detector.sync()
  const logs = reads.filter((r) => r.method === 'eth_getLogs')
  expect(logs).toHaveLength(2)
  expect((logs[1]!.params[0] as { fromBlock: string }).fromBlock).toBe('0x0')
  await detector.stop()
})
