// Payment detection from the chain, as Request Network's RPC detector does it: read the proxies'
// TransferWithReferenceAndFee logs (plus TransferWithConversionAndReference for the conversion proxies) and
// hand them to a sink that matches topic1 = keccak256(reference) to requests. The detector knows nothing of
// tenants; it guarantees order, at-most-once per log as long as the log stays on chain, and rollback when it
// does not (evm_revert, anvil restart: a block number going backwards or a block hash that changed).
import { type Address, decodeEventLog, getAddress, type Hex } from 'viem'
import { detectionAbi } from './abis.ts'
import { type HeadWatcher, watchHeads } from './head-watcher.ts'
import {
  CONVERSION_TOPIC,
  ERC20_TRANSFER_TOPIC,
  ETH_TRANSFER_TOPIC,
  type PairedLog,
  type ProxyKind,
  pairLogs,
  type RawLog,
} from './payment-logs.ts'

export { type ProxyKind, pairLogs } from './payment-logs.ts'

import { tronForm } from '../tron/node/transfer-form.ts'
import { rawRequest } from './json-rpc.ts'
import type { LiveChain } from './types.ts'

/** One payment log, decoded, with what the sink needs to match and record it. */
export interface DetectedTransfer {
  chainId: number
  network: string
  kind: ProxyKind
  /** the emitting contract */
  proxy: Address
  /** topic1: keccak256 of the 8 reference bytes */
  referenceHash: Hex
  txHash: Hex
  logIndex: number
  blockNumber: bigint
  blockHash: Hex
  /** block time */
  timestamp: Date
  /** null for native payments */
  tokenAddress: Address | null
  to: Address
  /** what reached `to`, in the paid currency's base units */
  amount: bigint
  feeAmount: bigint
  feeAddress: Address
  /** the conversion proxies' event: amount and fee in the request currency (fiat padded to 8 decimals) */
  conversion: { requestAmount: bigint; currency: Address; feeAmount: bigint } | null
  /** the transaction's sender (the payer's EOA) and what it paid in gas (wei) */
  from: Address
  /**
   * the account the tokens left (the ERC-20 Transfer to the payee just before the proxy's event): a smart account
   * or a Safe when one paid, else the sender; the sender for native payments
   */
  payer: Address
  gasFee: bigint
}

/** Where detected payments go: matching and bookkeeping live with the requests. */
export interface DetectorSink {
  /** whether a reference hash is one of a request (other logs are skipped before their receipt is read) */
  watches(referenceHash: Hex): boolean
  /** records new transfers (called in chain order; a transfer already recorded must be ignored) */
  apply(transfers: DetectedTransfer[]): Promise<void> | void
  /** forgets every transfer of `chainId` recorded from block `fromBlock` on: those blocks left the chain */
  rollback(chainId: number, fromBlock: bigint): Promise<void> | void
  /** resolves once every request (and every proxy a key installed) is known: scans wait for it (--state-dir's restart) */
  ready?(): Promise<void>
}

/** Options of startDetector. */
export interface DetectorOptions {
  chain: Pick<LiveChain, 'network' | 'chainId' | 'rpcUrl' | 'publicClient' | 'tron'>
  /** lower-case address -> kind, read at each scan (contracts installed later are picked up) */
  proxies: () => ReadonlyMap<string, ProxyKind>
  sink: DetectorSink
  log: (message: string, error?: unknown) => void
  heartbeatMs?: number
}

type RawBlock = { number: Hex; hash: Hex; parentHash: Hex; timestamp: Hex }
type ReceiptLog = { address: Address; topics: Hex[]; data: Hex; logIndex: Hex }
type RawReceipt = { from: Address; gasUsed: Hex; effectiveGasPrice?: Hex; logs?: ReceiptLog[] }

/** keccak256("Transfer(address,address,uint256)"), the ERC-20 Transfer event. */
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'

/**
 * The holder the payment's tokens came from: the `from` of the last ERC-20 Transfer of `token` to `to` logged before
 * the proxy's event in the same receipt (the proxy pulls from its caller), else the transaction's sender.
 */
function tokenPayer(receipt: RawReceipt, token: Address | null, to: Address, before: number): Address {
  if (!token) return getAddress(receipt.from)
  const payee = to.toLowerCase().slice(2).padStart(64, '0')
  const transfer = (receipt.logs ?? [])
    .filter(
      (l) =>
        Number(BigInt(l.logIndex)) < before &&
        l.address.toLowerCase() === token.toLowerCase() &&
        l.topics[0] === TRANSFER_TOPIC &&
        l.topics[2]?.toLowerCase().slice(2) === payee,
    )
    .at(-1)
  return transfer?.topics[1] ? getAddress(`0x${transfer.topics[1].slice(26)}`) : getAddress(receipt.from)
}
type Mark = { number: bigint; hash: Hex }

/** How many blocks one eth_getLogs reads at most when catching up. */
const LOG_RANGE = 5_000n

/** A running detector of one chain. */
export class PaymentDetector {
  readonly #options: DetectorOptions
  #watcher: HeadWatcher | null = null
  #running: Promise<void> | null = null
  /** scans begun so far; a caller of `sync` waits for the first that begins after its call */
  #scansStarted = 0
  #waiting: { scan: number; resolve: () => void }[] = []
  #again = false
  #stopped = false
  /** the last block scanned (null: nothing yet) */
  #last: Mark | null = null
  /** blocks that hold recorded transfers, by number: the only places a rollback must look */
  readonly #checkpoints = new Map<bigint, Hex>()

  constructor(options: DetectorOptions) {
    this.#options = options
  }

  /** Starts watching (first scan from block 0, so payments made before the sandbox started count too). */
  start(): this {
    this.#watcher = watchHeads({
      rpcUrl: this.#options.chain.rpcUrl,
      onTick: () => void this.sync(),
      ...(this.#options.heartbeatMs ? { heartbeatMs: this.#options.heartbeatMs } : {}),
    })
    void this.sync()
    return this
  }

  /** Whether new blocks are pushed to the detector (false: it polls). */
  get pushing(): boolean {
    return this.#watcher?.pushing ?? false
  }

  /**
   * Scans up to the current head now; resolves once a scan that began after the call has ended (the chain's payments
   * up to that head recorded). The loop goes on while heads keep coming, but a caller waits for one scan, not for the
   * chain to go quiet: under load the 250 ms heartbeat can arrive during every scan.
   */
  sync(): Promise<void> {
    if (this.#stopped) return Promise.resolve()
    const done = new Promise<void>((resolve) => this.#waiting.push({ scan: this.#scansStarted + 1, resolve }))
    if (this.#running) this.#again = true
    else this.#start()
    return done
  }

  #start(): void {
    this.#running = (async () => {
      do {
        this.#again = false
        const scan = ++this.#scansStarted
        try {
          await this.#scanOnce()
        } catch (error) {
          // A chain restarting refuses connections (the next tick retries); one reverted between two reads
          // answers a block out of range (read it again now).
          if (isOutOfRange(error)) this.#again = true
          else if (!isConnectionError(error))
            this.#options.log(`payment detection on ${this.#options.chain.network} failed`, error)
        }
        this.#release((waiter) => waiter.scan <= scan)
      } while (this.#again && !this.#stopped)
    })().finally(() => {
      this.#running = null
      // stopped: nobody waits for a scan that will not come; a call that came as the loop ended gets its scan
      if (this.#stopped) this.#release(() => true)
      else if (this.#waiting.length) this.#start()
    })
  }

  /** Resolves the callers of `sync` that `ended` says are served. */
  #release(ended: (waiter: { scan: number }) => boolean): void {
    const waiting = this.#waiting
    this.#waiting = []
    for (const waiter of waiting) {
      if (ended(waiter)) waiter.resolve()
      else this.#waiting.push(waiter)
    }
  }

  /** Stops watching and waits for a scan in progress. */
  async stop(): Promise<void> {
    this.#stopped = true
    this.#watcher?.stop()
    await this.#running
    this.#release(() => true)
  }

  async #block(tag: bigint | 'latest'): Promise<RawBlock | null> {
    const param = tag === 'latest' ? tag : `0x${tag.toString(16)}`
    return rawRequest<RawBlock | null>(this.#options.chain, 'eth_getBlockByNumber', [param, false])
  }

  async #scanOnce(): Promise<void> {
    await this.#options.sink.ready?.()
    const head = await this.#block('latest')
    if (!head) return
    const headMark = { number: BigInt(head.number), hash: head.hash }
    if (this.#last && !(await this.#stillOnChain(head))) await this.#reconcile(headMark)
    const from = this.#last ? this.#last.number + 1n : 0n
    for (let start = from; start <= headMark.number; start += LOG_RANGE) {
      const end = start + LOG_RANGE - 1n < headMark.number ? start + LOG_RANGE - 1n : headMark.number
      await this.#scanRange(start, end, head)
      if (this.#stopped) return
    }
    this.#last = headMark
  }

  /** Whether the last scanned block is still an ancestor of (or is) `head`. */
  async #stillOnChain(head: RawBlock): Promise<boolean> {
    const last = this.#last!
    const number = BigInt(head.number)
    if (number < last.number) return false
    if (number === last.number) return head.hash === last.hash
    if (number === last.number + 1n) return head.parentHash === last.hash
    return (await this.#block(last.number))?.hash === last.hash
  }

  /** Finds the highest recorded block still on chain, rolls back everything above it, rescans from there. */
  async #reconcile(head: Mark): Promise<void> {
    const numbers = [...this.#checkpoints.keys()].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0))
    let fork: Mark | null = null
    for (const number of numbers) {
      const hash = this.#checkpoints.get(number)!
      if (number <= head.number && (await this.#block(number))?.hash === hash) {
        fork = { number, hash }
        break
      }
      this.#checkpoints.delete(number)
    }
    await this.#options.sink.rollback(this.#options.chain.chainId, fork ? fork.number + 1n : 0n)
    this.#last = fork
  }

  async #scanRange(from: bigint, to: bigint, head: RawBlock): Promise<void> {
    const logs = await rawRequest<RawLog[]>(this.#options.chain, 'eth_getLogs', [
      {
        fromBlock: `0x${from.toString(16)}`,
        toBlock: `0x${to.toString(16)}`,
        topics: [[ERC20_TRANSFER_TOPIC, ETH_TRANSFER_TOPIC, CONVERSION_TOPIC]],
      },
    ])
    const proxies = this.#options.proxies()
    const transfers = pairLogs(
      logs.filter((l) => !l.removed && proxies.has(l.address.toLowerCase())),
      proxies,
    ).filter((t) => this.#options.sink.watches(t.log.topics[1]!))
    if (transfers.length === 0) return
    const receipts = new Map<Hex, Promise<RawReceipt>>()
    const blocks = new Map<bigint, Promise<RawBlock | null>>([[BigInt(head.number), Promise.resolve(head)]])
    for (const { log } of transfers) {
      if (!receipts.has(log.transactionHash))
        receipts.set(
          log.transactionHash,
          handled(
            rawRequest<RawReceipt>(this.#options.chain, 'eth_getTransactionReceipt', [log.transactionHash]),
          ),
        )
      const number = BigInt(log.blockNumber)
      if (!blocks.has(number)) blocks.set(number, handled(this.#block(number)))
    }
    const detected: DetectedTransfer[] = []
    for (const pair of transfers) {
      const receipt = await receipts.get(pair.log.transactionHash)!
      const block = await blocks.get(BigInt(pair.log.blockNumber))!
      if (!receipt || !block) continue
      detected.push(this.#decode(pair, receipt, block))
    }
    const tron = this.#options.chain.tron
    if (tron) for (const t of detected) await tronForm(tron, t)
    for (const t of detected) this.#checkpoints.set(t.blockNumber, t.blockHash)
    await this.#options.sink.apply(detected)
  }

  #decode(pair: PairedLog, receipt: RawReceipt, block: RawBlock): DetectedTransfer {
    const { log, kind, conversion } = pair
    const args = decodeEventLog({ abi: detectionAbi, data: log.data, topics: log.topics as [Hex, ...Hex[]] })
      .args as { tokenAddress?: Address; to: Address; amount: bigint; feeAmount: bigint; feeAddress: Address }
    let conv: DetectedTransfer['conversion'] = null
    if (conversion) {
      const c = decodeEventLog({
        abi: detectionAbi,
        data: conversion.data,
        topics: conversion.topics as [Hex, ...Hex[]],
      }).args as { amount: bigint; currency: Address; feeAmount: bigint }
      conv = { requestAmount: c.amount, currency: c.currency, feeAmount: c.feeAmount }
    }
    return {
      chainId: this.#options.chain.chainId,
      network: this.#options.chain.network,
      kind,
      proxy: getAddress(log.address),
      referenceHash: log.topics[1]!,
      txHash: log.transactionHash,
      logIndex: Number(log.logIndex),
      blockNumber: BigInt(log.blockNumber),
      blockHash: log.blockHash,
      timestamp: new Date(Number(BigInt(block.timestamp)) * 1000),
      tokenAddress: args.tokenAddress ? getAddress(args.tokenAddress) : null,
      to: getAddress(args.to),
      amount: args.amount,
      feeAmount: args.feeAmount,
      feeAddress: getAddress(args.feeAddress),
      conversion: conv,
      from: getAddress(receipt.from),
      payer: tokenPayer(
        receipt,
        args.tokenAddress ? getAddress(args.tokenAddress) : null,
        getAddress(args.to),
        Number(log.logIndex),
      ),
      gasFee: BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice ?? '0x0'),
    }
  }
}

function isOutOfRange(error: unknown): boolean {
  return /BlockOutOfRange|block height is/i.test(String((error as { details?: string })?.details ?? ''))
}

function isConnectionError(error: unknown): boolean {
  const text =
    String((error as { details?: string })?.details ?? '') + String((error as Error)?.message ?? '')
  return /ECONNREFUSED|ECONNRESET|fetch failed|socket hang up|other side closed/i.test(text)
}

/**
 * A read started beside others and awaited after them: its failure is still thrown where it is awaited, and handled
 * when an earlier one ended the scan first (an unhandled rejection ends the process).
 */
function handled<T>(read: Promise<T>): Promise<T> {
  read.catch(() => {})
  return read
}

/** Starts a detector for one chain. */
export function startDetector(options: DetectorOptions): PaymentDetector {
  return new PaymentDetector(options).start()
}
