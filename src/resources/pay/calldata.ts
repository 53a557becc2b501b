import { type Address, encodeFunctionData, maxUint256 } from 'viem'
import { erc20Abi, erc20FeeProxyAbi, ethFeeProxyAbi } from '../../chain/index.ts'
import { bigNumberJson } from '../../contract/amounts.ts'

/**
 * A transaction as the service returns it, `value` as ethers' BigNumber JSON. The service's own examples show
 * ERC-20 steps with `value: 0`, but its schema requires the object: we follow the schema (`0x00`), which
 * ethers v5, viem and wagmi clients read the same way.
 */
export interface ServiceTransaction {
  data: `0x${string}`
  to: Address
  value: { type: 'BigNumber'; hex: string }
}

/** The fee address the service encodes when no fee is asked (seen in its calldata). */
export const NO_FEE_ADDRESS: Address = '0x000000000000000000000000000000000000dEaD'

/** `approve(spender, amount)`; by default max, as Request Network's payment processor approves (MAX_ALLOWANCE). */
export function approveTransaction(
  token: Address,
  spender: Address,
  amount: bigint = maxUint256,
): ServiceTransaction {
  return {
    to: token,
    value: bigNumberJson(0n),
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] }),
  }
}

/** ERC20FeeProxy.transferFromWithReferenceAndFee for `amount` + `fee` of `token`. */
export function erc20PaymentTransaction(args: {
  proxy: Address
  token: Address
  to: Address
  amount: bigint
  reference: `0x${string}`
  fee: bigint
  feeAddress: Address
}): ServiceTransaction {
  return {
    to: args.proxy,
    value: bigNumberJson(0n),
    data: encodeFunctionData({
      abi: erc20FeeProxyAbi,
      functionName: 'transferFromWithReferenceAndFee',
      args: [args.token, args.to, args.amount, args.reference, args.fee, args.feeAddress],
    }),
  }
}

/** EthereumFeeProxy.transferWithReferenceAndFee; `value` carries amount + fee. */
export function ethPaymentTransaction(args: {
  proxy: Address
  to: Address
  amount: bigint
  reference: `0x${string}`
  fee: bigint
  feeAddress: Address
}): ServiceTransaction {
  return {
    to: args.proxy,
    value: bigNumberJson(args.amount + args.fee),
    data: encodeFunctionData({
      abi: ethFeeProxyAbi,
      functionName: 'transferWithReferenceAndFee',
      args: [args.to, args.reference, args.fee, args.feeAddress],
    }),
  }
}
