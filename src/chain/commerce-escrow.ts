// The sandbox's commerce escrow (contracts/SandboxCommerceEscrow.sol): installed on every live chain at one fixed
// address (no transaction), read for the commerce payments' status, and watched for its events (each hold's
// transitions) with the same head watcher as payment detection.
import { type Address, decodeEventLog, getAddress, type Hex, toHex } from 'viem'
import { isChainUnreachable } from '../contract/chain-unreachable.ts'
import { artifacts } from './artifacts.ts'
import { watchHeads } from './head-watcher.ts'
import { type ChainContext, installAt } from './install-contracts.ts'
import { rawRequest } from './json-rpc.ts'
import type { ChainContracts, LiveChain } from './types.ts'

/** Name of the escrow in LiveChain.contracts. */
export const COMMERCE_ESCROW = 'CommerceEscrow'

/** Where the escrow lives on every live chain: the last 20 bytes of keccak256('request-sandbox:SandboxCommerceEscrow'). */
export const COMMERCE_ESCROW_ADDRESS: Address = '0xb6E3e32c5dD2F59c56d6CA66e6Db08f3AAc3D909'

/** The escrow's ABI (from its compiled artifact). */
export const commerceEscrowAbi = artifacts.SandboxCommerceEscrow.abi

/**
 * Installs the escrow at COMMERCE_ESCROW_ADDRESS, paying merchants through the network's ERC20FeeProxy. Returns
 * `{CommerceEscrow: address}`, or nothing when the network has no ERC20FeeProxy.
 */
export async function installCommerceEscrow(
  ctx: ChainContext,
  contracts: ChainContracts,
): Promise<ChainContracts> {
  const feeProxy = contracts.ERC20FeeProxy
  if (!feeProxy) return {}
  const args = [getAddress(feeProxy)]
  return {
    [COMMERCE_ESCROW]: await installAt(ctx, artifacts.SandboxCommerceEscrow, args, COMMERCE_ESCROW_ADDRESS),
  }
}

/**
 * Puts this version's escrow code back at its address: a chain state saved by an earlier version (--state-dir)
 * brings that version's code back with it. Code only (the constructor writes no storage): the holds stay.
 */
export async function refreshCommerceEscrow(chain: LiveChain): Promise<void> {
  if (chain.contracts[COMMERCE_ESCROW]) await installCommerceEscrow(chain, chain.contracts)
}

/** One hold as the escrow stores it (a zero payer: never authorized). */
export interface EscrowHold {
  payer: Address
  merchant: Address
  operator: Address
  token: Address
  authorizedAmount: bigint
  maxAmount: bigint
  capturableAmount: bigint
  capturedAmount: bigint
  refundedAmount: bigint
  preApprovalExpiry: bigint
  authorizationExpiry: bigint
  refundExpiry: bigint
  voided: boolean
  reclaimed: boolean
  /** the payer's fee bound: at most this many bps of a capture, to `feeReceiver` only */
  maxFeeBps: number
  feeReceiver: Address
}

/** The hold under `paymentReference` (8 bytes, `0x` + 16 hex digits), read from the chain's latest block. */
export async function readEscrowHold(chain: LiveChain, paymentReference: Hex): Promise<EscrowHold | null> {
  const address = chain.contracts[COMMERCE_ESCROW]
  if (!address) return null
  const hold = (await chain.publicClient.readContract({
    address,
    abi: commerceEscrowAbi,
    functionName: 'getPayment',
    args: [paymentReference],
  })) as EscrowHold
  return hold
}

/** One event of the escrow, decoded. */
export interface EscrowEvent {
  chainId: number
  network: string
  name: 'PaymentAuthorized' | 'PaymentCaptured' | 'PaymentVoided' | 'PaymentReclaimed' | 'PaymentRefunded'
  /** 8 bytes, lower case */
  paymentReference: Hex
  /** what moved (authorized, captured before the fee, returned or refunded), base units */
  amount: bigint
  feeAmount: bigint
  feeReceiver: Address | null
  /** the refunder (PaymentRefunded) */
  by: Address | null
  txHash: Hex
  logIndex: number
  blockNumber: bigint
  timestamp: Date
}

/** Where escrow events go (matching them to payments lives with the commerce-payments resource). */
export interface EscrowSink {
  /** records events in chain order; an event applied again (its blocks read again after a failed read): once */
  apply(events: EscrowEvent[]): Promise<void> | void
}

type RawLog = {
  address: Address
  topics: Hex[]
  data: Hex
  transactionHash: Hex
  logIndex: Hex
  blockNumber: Hex
}
type RawBlock = { timestamp: Hex }

/** A running watch of one chain's escrow; `sync()` resolves once a scan up to the head ended (a failed one too). */
export interface EscrowWatcher {
  sync(): Promise<void>
  stop(): Promise<void>
}

/**
 * Watches the escrow of `chain`: on every head (and heartbeat) reads its logs since the last block it handed over
 * and hands them to `sink`, in chain order, one call at a time (a read that failed for a node out of reach reads the
 * same blocks again next time; a log the node answers wrongly about, or a batch the sink refuses, is logged and
 * passed, never retried forever). Starts from block 0, so events of a
 * previous run count. A reverted block is not rolled back (the status route reads the hold itself).
 */
export function watchCommerceEscrow(
  chain: Pick<LiveChain, 'network' | 'chainId' | 'rpcUrl' | 'publicClient' | 'contracts'>,
  sink: EscrowSink,
  log: (message: string, error?: unknown) => void,
): EscrowWatcher {
  const address = chain.contracts[COMMERCE_ESCROW]
  let next = 0n
  let running: Promise<void> | null = null
  let again = false
  let stopped = false
  const scan = async () => {
    if (!address) return
    const head = BigInt(await rawRequest<Hex>(chain, 'eth_blockNumber', []))
    if (head < next) {
      // the chain went back (revert, restart): read from where it is now
      next = head + 1n
      return
    }
    const logs = await rawRequest<RawLog[]>(chain, 'eth_getLogs', [
      { address, fromBlock: toHex(next), toBlock: toHex(head) },
    ])
    if (logs.length === 0) {
      next = head + 1n
      return
    }
    const blocks = new Map<string, Promise<RawBlock | null>>()
    const events: EscrowEvent[] = []
    for (const raw of logs) {
      try {
        if (!blocks.has(raw.blockNumber))
          blocks.set(raw.blockNumber, rawRequest(chain, 'eth_getBlockByNumber', [raw.blockNumber, false]))
        const block = await blocks.get(raw.blockNumber)!
        const event = decodeEscrowLog(chain, raw, block)
        if (event) events.push(event)
      } catch (error) {
        // a node out of reach: these blocks are read again next time; anything else (a log the node wrote wrong, a
        // block number it refuses) would fail the same way at every head: that log is logged and skipped
        if (isChainUnreachable(error)) throw error
        log(`a commerce escrow log on ${chain.network} could not be read and was skipped`, error)
      }
    }
    if (events.length) {
      try {
        await sink.apply(events)
      } catch (error) {
        log(`commerce escrow events on ${chain.network} could not be applied`, error)
      }
    }
    // past these blocks once their events were handed over: a read that failed before reads them again next time
    next = head + 1n
  }
  const sync = (): Promise<void> => {
    if (stopped) return Promise.resolve()
    if (running) {
      again = true
      return running
    }
    running = (async () => {
      do {
        again = false
        try {
          await scan()
        } catch (error) {
          if (!isChainUnreachable(error)) log(`commerce escrow watch on ${chain.network} failed`, error)
        }
      } while (again && !stopped)
    })().finally(() => {
      running = null
    })
    return running
  }
  const watcher = address ? watchHeads({ rpcUrl: chain.rpcUrl, onTick: () => void sync() }) : null
  return {
    sync,
    async stop() {
      stopped = true
      watcher?.stop()
      await running
    },
  }
}

function decodeEscrowLog(
  chain: Pick<LiveChain, 'network' | 'chainId'>,
  raw: RawLog,
  block: RawBlock | null,
): EscrowEvent | null {
  let decoded: { eventName: string; args: Record<string, unknown> }
  try {
    decoded = decodeEventLog({
      abi: commerceEscrowAbi,
      data: raw.data,
      topics: raw.topics as [Hex, ...Hex[]],
    }) as unknown as { eventName: string; args: Record<string, unknown> }
  } catch {
    return null
  }
  const args = decoded.args
  return {
    chainId: chain.chainId,
    network: chain.network,
    name: decoded.eventName as EscrowEvent['name'],
    paymentReference: String(args.paymentReference).toLowerCase() as Hex,
    amount: args.amount as bigint,
    feeAmount: (args.feeAmount as bigint | undefined) ?? 0n,
    feeReceiver: args.feeReceiver ? getAddress(args.feeReceiver as string) : null,
    by: args.refunder ? getAddress(args.refunder as string) : null,
    txHash: raw.transactionHash,
    logIndex: Number(raw.logIndex),
    blockNumber: BigInt(raw.blockNumber),
    timestamp: new Date(Number(BigInt(block?.timestamp ?? '0x0')) * 1000),
  }
}
