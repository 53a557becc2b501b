// What the Tron node's jobs share (transactions.ts, broadcast.ts, reads.ts, wired in node.ts): its resource prices,
// the transactions it executed (by id, by block number, by EVM hash), the free bandwidth each account used today, the
// queue broadcasts run in one at a time, and the reads of the anvil behind it. These records are the node's memory,
// like anvil's: a restart forgets them.
import { createHash } from 'node:crypto'
import { type Hex, toHex } from 'viem'
import { toEvmAddress, toTronAddress, tronHex } from '../address.ts'
import type { TronChain, TronReply } from './types.ts'

/** sun burnt per unit of energy (the chain parameter getEnergyFee) */
export const ENERGY_PRICE_SUN = 100n
/** sun burnt per byte of bandwidth beyond the free allowance (getTransactionFee) */
export const BANDWIDTH_PRICE_SUN = 1000n
/** free bandwidth per account per day (getFreeNetLimit) */
export const FREE_BANDWIDTH = 600
/** wei of the anvil per sun */
export const WEI_PER_SUN = 10n ** 12n
/** gas every EVM call costs that Tron does not count as energy */
export const BASE_GAS = 21_000n
/** The most energy one call may burn, and the gas that makes on anvil. */
export const MAX_ENERGY = 10_000_000n
export const MAX_GAS = BASE_GAS + MAX_ENERGY
/** TronWeb's default fee_limit (150 TRX) when a call has none */
export const DEFAULT_FEE_LIMIT = 150_000_000n
/** how long a built transaction may wait before broadcast (TronGrid: 60 s) */
export const EXPIRATION_MS = 60_000

export type Json = Record<string, unknown>

export interface TronTxRecord {
  txID: string
  transaction: Json
  evmHash: Hex | null
  blockNumber: number
  blockTimeStamp: number
  result: 'SUCCESS' | 'REVERT' | 'OUT_OF_ENERGY'
  contractResult: string
  energyUsage: bigint
  energyFee: bigint
  netUsage: number
  netFee: bigint
  contractAddress: string | null
  logs: { address: string; topics: string[]; data: string }[]
  resMessage?: string
}

export interface RawBlock {
  number: Hex
  hash: Hex
  parentHash: Hex
  timestamp: Hex
  transactionsRoot: Hex
  miner: Hex
}

export interface RawReceipt {
  status: Hex
  gasUsed: Hex
  blockNumber: Hex
  contractAddress: Hex | null
  logs: { address: Hex; topics: Hex[]; data: Hex }[]
}

export const hexText = (text: string) => Buffer.from(text, 'utf8').toString('hex')
export const strip0x = (h: string) => h.replace(/^0x/i, '')
export const addrBytes = (address: string) => Buffer.from(tronHex(address), 'hex')
export const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex')

/** An error answer as TronGrid writes it for a refused build: the message hex-encoded. */
export function buildError(code: string, message: string): TronReply {
  return { status: 200, body: { result: { code, message: hexText(message) } } }
}

export function isHex(v: unknown): v is string {
  return typeof v === 'string' && /^(0x)?([0-9a-fA-F]{2})*$/.test(v)
}

export function asAddress(v: unknown): string | null {
  if (typeof v !== 'string') return null
  try {
    return toEvmAddress(v)
  } catch {
    return null
  }
}

export function asInt(v: unknown, fallback: bigint): bigint | null {
  if (v === undefined || v === null) return fallback
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v)
  if (typeof v === 'string' && /^\d+$/.test(v)) return BigInt(v)
  return null
}

/** A build's Permission_id: undefined when absent, null when not a small non-negative integer. */
export function permissionOf(body: Json): number | undefined | null {
  const v = body.Permission_id
  if (v === undefined || v === null) return undefined
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0xffff ? v : null
}

/** The TRON block id of an anvil block: its number in the first 8 bytes, the rest of its hash after. */
export const blockId = (b: RawBlock) =>
  BigInt(b.number).toString(16).padStart(16, '0') + strip0x(b.hash).slice(16)
/** the UTC day of a time in ms (free bandwidth is counted per day) */
export const day = (ms: number) => Math.floor(ms / 86_400_000)
/** an address as the caller asked: `T…` when `visible`, else 41-prefixed hex */
export const out = (address: string, visible: boolean) =>
  visible ? toTronAddress(address) : tronHex(address)

/** The node's shared state and its reads of the anvil. */
export interface TronContext {
  chain: TronChain
  rpc: TronChain['rpc']
  /** executed transactions by Tron id */
  txs: Map<string, TronTxRecord>
  /** the same records by block number, in the order they were recorded (what a block lists) */
  txsByBlock: Map<number, TronTxRecord[]>
  /** records a transaction by id and by block */
  keep(record: TronTxRecord): void
  /** EVM hash (lower case) -> Tron id */
  byEvmHash: Map<string, string>
  /** free bandwidth used: address -> {day, used} */
  bandwidthUsed: Map<string, { day: number; used: number }>
  /** runs `task` after every task queued before it */
  serial<T>(task: () => Promise<T>): Promise<T>
  /** resolves once the tasks queued so far have ended */
  idle(): Promise<unknown>
  /** the ABIs getcontract answers, by lower-case EVM address (filled on first use) */
  contractAbis: Map<string, Json[]>
  latestBlock(): Promise<RawBlock>
  blockByNumber(n: number | bigint): Promise<RawBlock | null>
  /** TRX balance in sun */
  balanceSun(evm: string): Promise<bigint>
  /** free bandwidth an account has left on the day of `nowMs` */
  freeLeft(evm: string, nowMs: number): number
  /** whether an address holds code */
  hasCode(address: string): Promise<boolean>
}

/** The shared state of a new node over `chain`. */
export function createTronContext(chain: TronChain): TronContext {
  const rpc = chain.rpc
  const txs = new Map<string, TronTxRecord>()
  const txsByBlock = new Map<number, TronTxRecord[]>()
  const bandwidthUsed = new Map<string, { day: number; used: number }>()
  let queue: Promise<unknown> = Promise.resolve()
  return {
    chain,
    rpc,
    txs,
    txsByBlock,
    keep(record) {
      txs.set(record.txID, record)
      const inBlock = txsByBlock.get(record.blockNumber)
      if (inBlock) inBlock.push(record)
      else txsByBlock.set(record.blockNumber, [record])
    },
    byEvmHash: new Map(),
    bandwidthUsed,
    serial(task) {
      const run = queue.then(task, task)
      queue = run.catch(() => {})
      return run
    },
    idle: () => queue,
    contractAbis: new Map(),
    latestBlock: () => rpc<RawBlock>('eth_getBlockByNumber', ['latest', false]),
    blockByNumber: (n) => rpc<RawBlock | null>('eth_getBlockByNumber', [toHex(BigInt(n)), false]),
    balanceSun: async (evm) => BigInt(await rpc<Hex>('eth_getBalance', [evm, 'latest'])) / WEI_PER_SUN,
    freeLeft(evm, nowMs) {
      const entry = bandwidthUsed.get(evm)
      const used = entry && entry.day === day(nowMs) ? entry.used : 0
      return Math.max(0, FREE_BANDWIDTH - used)
    },
    hasCode: async (address) => strip0x(await rpc<Hex>('eth_getCode', [address, 'latest'])).length > 0,
  }
}
