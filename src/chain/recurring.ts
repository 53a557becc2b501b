// The sandbox's recurring payment proxy (contracts/RecurringPaymentProxy.sol): installed at Request Network's
// published ERC20RecurringPaymentProxy v0.1.0 address of each network, with the EIP-712 SchedulePermit that
// payers sign for it.
import { type Address, getAddress, type Hex } from 'viem'
import { artifacts } from './artifacts.ts'
import { type ChainContext, installAt } from './install-contracts.ts'
import type { ChainContracts } from './types.ts'

/** Name of the recurring proxy in fixtures/networks.json and in LiveChain.contracts. */
export const RECURRING_PROXY = 'ERC20RecurringPaymentProxy'

/** EIP-712 domain name and version of the recurring proxy. */
export const SCHEDULE_PERMIT_DOMAIN = { name: 'ERC20RecurringPaymentProxy', version: '1' } as const

/** The SchedulePermit type, ethers-v5 style (no EIP712Domain entry): what the payer signs. */
export const SCHEDULE_PERMIT_TYPES = {
  SchedulePermit: [
    { name: 'subscriber', type: 'address' },
    { name: 'token', type: 'address' },
    { name: 'recipient', type: 'address' },
    { name: 'feeAddress', type: 'address' },
    { name: 'amount', type: 'uint128' },
    { name: 'feeAmount', type: 'uint128' },
    { name: 'relayerFee', type: 'uint128' },
    { name: 'periodSeconds', type: 'uint32' },
    { name: 'firstPayment', type: 'uint32' },
    { name: 'totalPayments', type: 'uint8' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
    { name: 'strictOrder', type: 'bool' },
  ],
} as const

/** SchedulePermit values as the API returns them (base-unit amounts and nonce as strings, times as numbers). */
export interface SchedulePermitValues {
  subscriber: Address
  token: Address
  recipient: Address
  feeAddress: Address
  amount: string
  feeAmount: string
  relayerFee: string
  periodSeconds: number
  firstPayment: number
  totalPayments: number
  nonce: Hex
  deadline: number
  strictOrder: boolean
}

/** The permit as the contract takes it (the struct argument of triggerRecurringPayment). */
export function permitStruct(values: SchedulePermitValues) {
  return {
    subscriber: getAddress(values.subscriber),
    token: getAddress(values.token),
    recipient: getAddress(values.recipient),
    feeAddress: getAddress(values.feeAddress),
    amount: BigInt(values.amount),
    feeAmount: BigInt(values.feeAmount),
    relayerFee: BigInt(values.relayerFee),
    periodSeconds: values.periodSeconds,
    firstPayment: values.firstPayment,
    totalPayments: values.totalPayments,
    nonce: BigInt(values.nonce),
    deadline: BigInt(values.deadline),
    strictOrder: values.strictOrder,
  }
}

/** The EIP-712 domain of the proxy at `proxy` on `chainId`. */
export function schedulePermitDomain(chainId: number, proxy: Address) {
  return { ...SCHEDULE_PERMIT_DOMAIN, chainId, verifyingContract: getAddress(proxy) }
}

/**
 * Installs the recurring proxy at the network's published address (no transaction): admin and owner =
 * roles.deployer, RELAYER_ROLE = roles.relayer, fee proxy = the network's ERC20FeeProxy. Returns
 * `{ERC20RecurringPaymentProxy: address}`, or nothing when the network lists no recurring proxy or fee proxy.
 */
export async function installRecurringProxy(
  ctx: ChainContext,
  contracts: ChainContracts,
): Promise<ChainContracts> {
  const at = contracts[RECURRING_PROXY]
  const feeProxy = contracts.ERC20FeeProxy
  if (!at || !feeProxy) return {}
  const args = [ctx.roles.deployer.address, ctx.roles.relayer.address, getAddress(feeProxy)]
  return { [RECURRING_PROXY]: await installAt(ctx, artifacts.RecurringPaymentProxy, args, getAddress(at)) }
}
