// The one way the sandbox sends transactions: a sender per (chain, key) with a serial queue (one nonce sequence,
// so concurrent callers never race for a nonce), receipts that throw on revert, and revert decoding. Also sends
// the transactions the API returns ({to, data, value}) from a wallet, as a payer would.
import { SpanStatusCode, trace } from '@opentelemetry/api'
import {
  type Abi,
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  getAddress,
  type Hash,
  type Hex,
  http,
  type LocalAccount,
  type PublicClient,
  type TransactionReceipt,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { ownHttp } from './own-traffic.ts'
import type { LiveChain } from './types.ts'

/** Runs tasks one after another (one sender, one nonce sequence); a failure does not block later tasks. */
export function serialQueue(): <T>(task: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve()
  return (task) => {
    const run = tail.then(task, task)
    tail = run.catch(() => undefined)
    return run
  }
}

/** A contract call to send. */
export interface ContractCall {
  to: Address
  abi: Abi | readonly unknown[]
  functionName: string
  args: readonly unknown[]
  value?: bigint
}

/** A mined transaction whose status is not success. */
export class TransactionRevertedError extends Error {
  override name = 'TransactionRevertedError'
  readonly hash: Hash
  constructor(hash: Hash, where?: string) {
    super(`transaction ${hash} reverted${where ? ` on ${where}` : ''}`)
    this.hash = hash
  }
}

/** What a failed call says: the contract's custom error name and arguments when it reverted with one. */
export interface DecodedRevert {
  /** the custom error's name (`Error` for a require message) */
  errorName?: string
  /** the revert reason string, when there is one */
  reason?: string
  args?: readonly unknown[]
  /** viem's short message, or the error's message */
  message: string
  /** whether viem raised it (the node or the contract refused), rather than anything else */
  fromChain: boolean
}

/** Decodes why a call or transaction failed. */
export function decodeRevert(error: unknown): DecodedRevert {
  if (error instanceof BaseError) {
    const revert = error.walk((e) => e instanceof ContractFunctionRevertedError)
    if (revert instanceof ContractFunctionRevertedError) {
      return {
        errorName: revert.data?.errorName,
        reason: revert.reason,
        args: revert.data?.args,
        message: error.shortMessage,
        fromChain: true,
      }
    }
    return { message: error.shortMessage, fromChain: true }
  }
  return { message: error instanceof Error ? error.message : String(error), fromChain: false }
}

/** Why an on-chain step failed, in one line (the revert's error name and arguments when known). */
export function revertReason(error: unknown): string {
  const { errorName, reason, args, message } = decodeRevert(error)
  const name = errorName ?? reason
  if (!name) return message
  const list = args?.map(String).join(', ')
  return list ? `${name}(${list})` : name
}

/** What a sender needs of a chain (a LiveChain, or one being started). */
export type SenderChain = Pick<LiveChain, 'rpcUrl' | 'publicClient' | 'keepBlock'>

/** Sends transactions from one key on one chain, one at a time. */
export interface TransactionSender {
  address: Address
  /** Runs `task` alone in this sender's queue (use `writeNow` inside it, never `submit` or `send`). */
  serial<T>(task: () => Promise<T>): Promise<T>
  /** Simulates (unless `simulate: false`) and sends `call` now, outside the queue; resolves with the hash. */
  writeNow(call: ContractCall, options?: { simulate?: boolean }): Promise<Hash>
  /** `writeNow` in the queue: resolves once the node accepted the transaction. */
  submit(call: ContractCall, options?: { simulate?: boolean }): Promise<Hash>
  /** Waits for the receipt of `hash`; throws TransactionRevertedError unless it succeeded. */
  confirm(hash: Hash): Promise<TransactionReceipt>
  /** Simulates, sends and waits for the receipt, all in one slot of the queue. */
  send(call: ContractCall): Promise<TransactionReceipt>
}

/** A sender for `privateKey` on `chain`; `label` names the chain in revert messages. */
export function createSender(chain: SenderChain, privateKey: Hex, label?: string): TransactionSender {
  const account = privateKeyToAccount(privateKey)
  const publicClient = chain.publicClient as PublicClient
  const wallet = createWalletClient({ account, chain: publicClient.chain, transport: ownHttp(chain.rpcUrl) })
  const enqueue = serialQueue()

  const writeNow = async (call: ContractCall, options: { simulate?: boolean } = {}): Promise<Hash> => {
    const params = {
      account,
      address: call.to,
      abi: call.abi,
      functionName: call.functionName,
      args: call.args,
      ...(call.value === undefined ? {} : { value: call.value }),
    }
    if (options.simulate === false) return wallet.writeContract(params as never)
    const { request } = await publicClient.simulateContract(params as never)
    return wallet.writeContract(request as never)
  }
  const confirm = async (hash: Hash): Promise<TransactionReceipt> => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash })
    // the chain's saved state holds the block before the sandbox acts on its receipt
    await chain.keepBlock?.(receipt.blockNumber)
    if (receipt.status !== 'success') throw new TransactionRevertedError(hash, label)
    return receipt
  }
  return {
    address: account.address,
    serial: enqueue,
    writeNow,
    submit: (call, options) => enqueue(() => traced(call, label, () => writeNow(call, options))),
    confirm,
    send: (call) => enqueue(() => traced(call, label, async () => confirm(await writeNow(call)))),
  }
}

/**
 * A transaction the sandbox sends, as a span (OpenTelemetry; a no-op without it) of whatever is active: the call,
 * the timed task or the detection that made it.
 */
function traced<T extends Hash | TransactionReceipt>(
  call: ContractCall,
  network: string | undefined,
  send: () => Promise<T>,
): Promise<T> {
  const attributes = {
    'sandbox.tx.to': call.to,
    'sandbox.tx.function': call.functionName,
    ...(network ? { 'sandbox.network': network } : {}),
  }
  return trace.getTracer('request-sandbox').startActiveSpan('chain.send', { attributes }, async (span) => {
    try {
      const result = await send()
      if (typeof result === 'string') span.setAttribute('sandbox.tx.hash', result)
      else {
        span.setAttribute('sandbox.tx.hash', result.transactionHash)
        span.setAttribute('sandbox.tx.block', Number(result.blockNumber))
      }
      return result
    } catch (error) {
      span.recordException(error as Error)
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message })
      throw error
    } finally {
      span.end()
    }
  })
}

/** A transaction as the API returns it: `value` as BigNumber JSON, a hex string (cancel) or a number (batch approvals). */
export interface ApiTransaction {
  to: string
  data: string
  value: { hex: string } | string | number
}

/**
 * Sends the API's transactions in order from `from` (a private key or a local account) on `chain`, exactly as
 * returned, each after the previous one is mined; throws on the first that reverts. Resolves with their receipts.
 * `rpcUrl` sends and polls through another endpoint of the same chain (the sandbox's /rpc proxy).
 */
export async function sendApiTransactions(
  chain: SenderChain,
  from: Hex | LocalAccount,
  transactions: readonly ApiTransaction[],
  options: { rpcUrl?: string; pollingInterval?: number } = {},
): Promise<TransactionReceipt[]> {
  const viemChain = (chain.publicClient as PublicClient).chain
  const publicClient = options.rpcUrl
    ? createPublicClient({ chain: viemChain, transport: http(options.rpcUrl) })
    : (chain.publicClient as PublicClient)
  const wallet = createWalletClient({
    account: typeof from === 'string' ? privateKeyToAccount(from) : from,
    chain: viemChain,
    transport: http(options.rpcUrl ?? chain.rpcUrl),
  })
  const receipts: TransactionReceipt[] = []
  for (const tx of transactions) {
    const hash = await wallet.sendTransaction({
      to: getAddress(tx.to),
      data: tx.data as Hex,
      value: BigInt(typeof tx.value === 'object' ? tx.value.hex : tx.value),
      chain: null,
    })
    const receipt = await publicClient.waitForTransactionReceipt({
      hash,
      pollingInterval: options.pollingInterval ?? 50,
    })
    if (receipt.status !== 'success') throw new TransactionRevertedError(hash)
    receipts.push(receipt)
  }
  return receipts
}
