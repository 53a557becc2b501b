// The sandbox's relayer: the one account holding RELAYER_ROLE on a chain's recurring proxy. It sends each
// triggerRecurringPayment from roles.relayer, one at a time per chain (one nonce sequence), after checking the
// subscriber's balance and allowance and simulating the call, so a failure comes back as a reason, not a
// stuck transaction.
import { type Address, type Hash, type Hex, parseEventLogs } from 'viem'
import { erc20FeeProxyAbi, recurringProxyAbi } from './abis.ts'
import { permitStruct, RECURRING_PROXY, type SchedulePermitValues } from './recurring.ts'
import { createSender, decodeRevert, TransactionRevertedError } from './sender.ts'
import { chainTime, syncChainTime } from './time.ts'
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
  const { errorName, message, fromChain } = decodeRevert(error)
  if (!fromChain) return new RelayFailure(`Transaction failed: ${message}`, 'failed')
  const known = errorName ? revertReasons[errorName] : undefined
  if (known) return new RelayFailure(...known)
  return new RelayFailure(`Transaction reverted: ${errorName ?? message}`, 'failed')
}

/** The relayer of one live chain (null when the chain has no recurring proxy). */
export function createRelayer(chain: LiveChain): Relayer | null {
  const proxy = chain.contracts[RECURRING_PROXY]
  if (!proxy) return null
  const sender = createSender(chain, chain.roles.relayer.privateKey, chain.network)

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
      if ((await chainTime(chain)) * 1000 < input.dueAt.getTime()) throw error
    })
    let hash: Hash
    try {
      hash = await sender.writeNow({
        to: proxy!,
        abi: recurringProxyAbi,
        functionName: 'triggerRecurringPayment',
        args: [permit, input.signature, input.index, input.paymentReference],
      })
    } catch (error) {
      throw failureOf(error)
    }
    const receipt = await sender.confirm(hash).catch((error: unknown) => {
      if (error instanceof TransactionRevertedError)
        throw new RelayFailure(`Transaction ${hash} reverted`, 'failed')
      throw error
    })
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

  return { address: sender.address, trigger: (input) => sender.serial(() => send(input)) }
}
