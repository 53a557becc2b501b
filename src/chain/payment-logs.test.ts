import { encodeAbiParameters, type Hex, keccak256, parseAbiParameters } from 'viem'
import { describe, expect, it } from 'vitest'
import {
  CONVERSION_TOPIC,
  ERC20_TRANSFER_TOPIC,
  ETH_TRANSFER_TOPIC,
  type ProxyKind,
  pairLogs,
} from './payment-logs.ts'

const feeProxy = '0x399f5ee127ce7432e4921a61b8cf52b0af52cbfe'
const conversionProxy = '0xad61121dafaae495095cd466022b519cb7503a4e'
const ethProxy = '0xe11bf2fda23bf0a98365e1a4c04a87c9339e8687'
const proxies = new Map<string, ProxyKind>([
  [feeProxy, 'erc20-fee'],
  [conversionProxy, 'erc20-conversion'],
  [ethProxy, 'eth-fee'],
])
const ref = keccak256('0x0123456789abcdef')
const tx = (n: number) => `0x${n.toString(16).padStart(64, '0')}` as Hex

function log(address: string, topic0: Hex, txHash: Hex, logIndex: number, topic1: Hex = ref) {
  return {
    address,
    topics: [topic0, topic1],
    data: encodeAbiParameters(parseAbiParameters('uint256'), [1n]),
    blockNumber: '0x5' as Hex,
    blockHash: tx(99),
    transactionHash: txHash,
    logIndex: `0x${logIndex.toString(16)}` as Hex,
  }
}

describe('pairLogs', () => {
  it('keeps fee-proxy transfers as they are and gives a conversion transfer the conversion event that follows it', () => {
    const logs = [
      log(conversionProxy, CONVERSION_TOPIC, tx(2), 3),
      log(feeProxy, ERC20_TRANSFER_TOPIC, tx(1), 0),
      log(conversionProxy, ERC20_TRANSFER_TOPIC, tx(2), 2),
    ]
    const paired = pairLogs(logs, proxies)
    expect(paired.map((p) => [p.kind, p.log.logIndex, p.conversion?.logIndex ?? null])).toEqual([
      ['erc20-fee', '0x0', null],
      ['erc20-conversion', '0x2', '0x3'],
    ])
  })

  it('drops a conversion transfer without its conversion event, and events that do not fit the emitting contract', () => {
    const logs = [
      log(conversionProxy, ERC20_TRANSFER_TOPIC, tx(3), 0),
      log(conversionProxy, CONVERSION_TOPIC, tx(4), 1),
      log(feeProxy, ETH_TRANSFER_TOPIC, tx(5), 2),
      log(ethProxy, ERC20_TRANSFER_TOPIC, tx(6), 3),
      log('0x0000000000000000000000000000000000000001', ERC20_TRANSFER_TOPIC, tx(7), 4),
    ]
    expect(pairLogs(logs, proxies)).toEqual([])
  })

  it('pairs a conversion event only with a transfer of the same reference', () => {
    const other = keccak256('0xfedcba9876543210')
    const logs = [
      log(conversionProxy, ERC20_TRANSFER_TOPIC, tx(8), 0),
      log(conversionProxy, CONVERSION_TOPIC, tx(8), 1, other),
    ]
    expect(pairLogs(logs, proxies)).toEqual([])
  })
})
