// The sandbox's relayer: the one account holding RELAYER_ROLE on a chain's recurring proxy. It sends each
// triggerRecurringPayment from roles.relayer, one at a time per chain (one nonce sequence), after checking the
// subscriber's balance and allowance and simulating the call, so a failure comes back as a reason, not a
// stuck transaction.
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  createWalletClient,
  type Hash,
  type Hex,
  http,
  parseEventLogs,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { syncChainTime } from '../control/clock.ts'
import { erc20FeeProxyAbi } from '../resources/pay/abis.ts'
import { permitStruct, RECURRING_PROXY, recurringProxyAbi, type SchedulePermitValues } from './recurring.ts'
import { serialQueue } from './start-chain.ts'
import type { LiveChain } from './types.ts'

/** One payment of a schedule to trigger. */
export interface TriggerInput {
  permit: SchedulePermitValues
  signature: Hex
  /** 1-based payment index */
  index: number
  paymentReference: Hex
  /** the payment's due time: the chain's next block is moved up to it when behind */
  dueAt: Date
}

/** A payment the relayer made, read from its receipt and the ERC20FeeProxy log. */
export interface RelayedPayment {
  txHash: Hash
  blockNumber: number
  blockTimestamp: Date
  logIndex: number
  token: Address
  to: Address
  amount: bigint
  feeAmount: bigint
  feeAddress: Address
  gasUsed: bigint
}

/** A trigger that could not be made; `reason` is what the payout reports, `subStatus` what payment.failed says. */
export class RelayFailure extends Error {
  override name = 'RelayFailure'
  readonly reason: string
  readonly subStatus: string
  constructor(reason: string, subStatus: string) {
    super(reason)
    this.reason = reason
    this.subStatus = subStatus
  }
}

/** Sends triggerRecurringPayment on one chain. */
export interface Relayer {
  address: Address
  trigger(input: TriggerInput): Promise<RelayedPayment>
}

/** What each of the proxy's custom errors means to a payout. */
const revertReasons: Record<string, [string, string]> = {
  ERC20RecurringPaymentProxy__BadSignature: ['Invalid permit signature', 'failed'],
  ERC20RecurringPaymentProxy__SignatureExpired: ['Recurring payment permit expired', 'failed'],
  ERC20RecurringPaymentProxy__PaymentOutOfOrder: ['Payment out of order', 'failed'],
  ERC20RecurringPaymentProxy__IndexOutOfBounds: ['Payment index out of bounds', 'failed'],
  ERC20RecurringPaymentProxy__NotDueYet: ['Payment not due yet', 'failed'],
  ERC20RecurringPaymentProxy__AlreadyPaid: ['Payment already made', 'failed'],
  ERC20InsufficientBalance: ['Insufficient token balance', 'insufficient_funds'],
  ERC20InsufficientAllowance: ['Insufficient token allowance', 'insufficient_allowance'],
}

function failureOf(error: unknown): RelayFailure {
  if (error instanceof BaseError) {
    const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError)
    const name = reverted instanceof ContractFunctionRevertedError ? reverted.data?.errorName : undefined
    const known = name ? revertReasons[name] : undefined
    if (known) return new RelayFailure(...known)
    return new RelayFailure(`Transaction reverted: ${name ?? error.shortMessage}`, 'failed')
  }
  return new RelayFailure(`Transaction failed: ${(error as Error).message}`, 'failed')
}

/** The relayer of one live chain (null when the chain has no recurring proxy). */
export function createRelayer(chain: LiveChain): Relayer | null {
  const proxy = chain.contracts[RECURRING_PROXY]
  if (!proxy) return null
  const account = privateKeyToAccount(chain.roles.relayer.privateKey)
  const wallet = createWalletClient({
    account,
    chain: chain.publicClient.chain,
    transport: http(chain.rpcUrl),
  })
  const enqueue = serialQueue()

  async function send(input: TriggerInput): Promise<RelayedPayment> {
    const permit = permitStruct(input.permit)
    const need = permit.amount + permit.feeAmount + permit.relayerFee
    const [balance, allowance] = await Promise.all([
      chain.balanceOf(permit.token, permit.subscriber),
      chain.allowance(permit.token, permit.subscriber, proxy!),
    ])
    if (balance < need) throw new RelayFailure('Insufficient token balance', 'insufficient_funds')
    if (allowance < need) throw new RelayFailure('Insufficient token allowance', 'insufficient_allowance')
    // The proxy checks the due time against block.timestamp: bring a lagging chain up to it first. A clock
    // advance of another tenant may move the chain at the same moment; only a chain still behind is an error.
    await syncChainTime([chain], input.dueAt).catch(async (error) => {
      const latest = await chain.publicClient.getBlock({ blockTag: 'latest' })
      if (latest.timestamp * 1000n < BigInt(input.dueAt.getTime())) throw error
    })
    let hash: Hash
    try {
      const { request } = await chain.publicClient.simulateContract({
        account,
        address: proxy!,
        abi: recurringProxyAbi,
        functionName: 'triggerRecurringPayment',
        args: [permit, input.signature, input.index, input.paymentReference],
      })
      hash = await wallet.writeContract(request)
    } catch (error) {
      throw failureOf(error)
    }
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash })
    if (receipt.status !== 'success') throw new RelayFailure(`Transaction ${hash} reverted`, 'failed')
    const log = parseEventLogs({
      abi: erc20FeeProxyAbi,
      logs: receipt.logs,
      eventName: 'TransferWithReferenceAndFee',
    }).find((l) => l.address.toLowerCase() === chain.contracts.ERC20FeeProxy?.toLowerCase())
    if (!log) throw new RelayFailure(`Transaction ${hash} emitted no ERC20FeeProxy payment`, 'failed')
    const block = await chain.publicClient.getBlock({ blockNumber: receipt.blockNumber })
    return {
      txHash: hash,
      blockNumber: Number(receipt.blockNumber),
      blockTimestamp: new Date(Number(block.timestamp) * 1000),
      logIndex: log.logIndex,
      token: log.args.tokenAddress,
      to: log.args.to,
      amount: log.args.amount,
      feeAmount: log.args.feeAmount,
      feeAddress: log.args.feeAddress,
      gasUsed: receipt.gasUsed,
    }
  }

  return { address: account.address, trigger: (input) => enqueue(() => send(input)) }
}
