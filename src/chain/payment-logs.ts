// Request Network's payment events as the detector reads them: topics, ABI, and how a conversion proxy's
// transfer is paired with the conversion event it emits next.
import { type Hex, toEventSelector } from 'viem'
import { detectionAbi } from './abis.ts'

/** What a watched contract is: which event it emits and whether a conversion event accompanies it. */
export type ProxyKind = 'erc20-fee' | 'eth-fee' | 'erc20-conversion' | 'eth-conversion'

const [erc20Event, ethEvent, conversionEvent] = detectionAbi
/** topic0 of ERC20FeeProxy's event. */
export const ERC20_TRANSFER_TOPIC = toEventSelector(erc20Event)
/** topic0 of EthereumFeeProxy's event. */
export const ETH_TRANSFER_TOPIC = toEventSelector(ethEvent)
/** topic0 of the conversion proxies' TransferWithConversionAndReference. */
export const CONVERSION_TOPIC = toEventSelector(conversionEvent)

/** A log as eth_getLogs returns it. */
export type RawLog = {
  address: string
  topics: Hex[]
  data: Hex
  blockNumber: Hex
  blockHash: Hex
  transactionHash: Hex
  logIndex: Hex
  removed?: boolean
}
/** A transfer log, its kind, and (conversion proxies) its conversion event. */
export type PairedLog = { log: RawLog; kind: ProxyKind; conversion: RawLog | null }

/**
 * Keeps the transfer logs whose event fits the emitting contract, and gives each conversion-proxy transfer
 * the TransferWithConversionAndReference that follows it in the same transaction, from the same contract,
 * with the same reference (the conversion proxy emits both: the fee proxy's event through delegatecall first).
 */
export function pairLogs(logs: RawLog[], proxies: ReadonlyMap<string, ProxyKind>): PairedLog[] {
  const sorted = [...logs].sort((a, b) =>
    a.blockNumber === b.blockNumber
      ? Number(BigInt(a.logIndex) - BigInt(b.logIndex))
      : BigInt(a.blockNumber) < BigInt(b.blockNumber)
        ? -1
        : 1,
  )
  const used = new Set<RawLog>()
  const paired: PairedLog[] = []
  for (const [i, log] of sorted.entries()) {
    const kind = proxies.get(log.address.toLowerCase())
    const topic = log.topics[0]
    if (!kind || !log.topics[1]) continue
    const erc20 = kind === 'erc20-fee' || kind === 'erc20-conversion'
    if (topic !== (erc20 ? ERC20_TRANSFER_TOPIC : ETH_TRANSFER_TOPIC)) continue
    if (kind === 'erc20-fee' || kind === 'eth-fee') {
      paired.push({ log, kind, conversion: null })
      continue
    }
    const conversion = sorted
      .slice(i + 1)
      .find(
        (c) =>
          !used.has(c) &&
          c.topics[0] === CONVERSION_TOPIC &&
          c.transactionHash === log.transactionHash &&
          c.address.toLowerCase() === log.address.toLowerCase() &&
          c.topics[1] === log.topics[1],
      )
    // A conversion proxy's transfer without its conversion event is not a conversion payment.
    if (!conversion) continue
    used.add(conversion)
    paired.push({ log, kind, conversion })
  }
  return paired
}
