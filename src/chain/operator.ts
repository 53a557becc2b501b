// The sandbox's cross-chain operator: one key (roles.operator, the same on every chain) that pulls a payer's funds
// on the source chain through Permit2 and pays the payee on the request's chain through ERC20FeeProxy. The "bridge"
// is the deployer minting the destination token to the operator (LiveChain.fund): what arrives is exactly what the
// intent said, with no liquidity to manage. Every send waits for its receipt and throws on revert; sends on one
// chain are serialised so concurrent settlements never race for the operator's nonce.
import { type Address, type Hash, type Hex, maxUint256, parseSignature } from 'viem'
import { erc20Abi, erc20FeeProxyAbi, erc2612Abi, permit2Abi } from './abis.ts'
import { PERMIT2_ADDRESS } from './install-contracts.ts'
import { type ContractCall, createSender, type TransactionSender } from './sender.ts'
import type { LiveChain } from './types.ts'

/** A token and the most Permit2 may move of it (one entry of `permitted`). */
export interface TokenPermission {
  token: Address
  amount: bigint
}

/** What the operator submits to Permit2 on the source chain. */
export interface WitnessTransfer {
  owner: Address
  permitted: TokenPermission[]
  nonce: bigint
  deadline: bigint
  /** EIP-712 hash of the witness struct */
  witness: Hex
  witnessTypeString: string
  signature: Hex
  /** where each permitted amount goes (same order as `permitted`) */
  recipients: Address[]
}

/** An EIP-2612 permit the payer signed (spender Permit2 unless `spender` says otherwise). */
export interface SignedPermit {
  token: Address
  owner: Address
  spender?: Address
  value: bigint
  deadline: bigint
  signature: Hex
}

/** The sandbox operator: its address and the on-chain steps of a cross-chain settlement. */
export interface SandboxOperator {
  address: Address
  /** Submits the payer's EIP-2612 permit (spender Permit2, or the permit's `spender`) on `network`. */
  submitPermit(network: string, permit: SignedPermit): Promise<Hash>
  /** Pulls the permitted amounts through Permit2's permitWitnessTransferFrom on `network`. */
  pullWithWitness(network: string, transfer: WitnessTransfer): Promise<Hash>
  /** "Bridges" `amount + fee` of `token` to itself on `network`, then pays `to` through ERC20FeeProxy. */
  payThroughFeeProxy(
    network: string,
    args: { token: Address; to: Address; amount: bigint; reference: Hex; fee: bigint; feeAddress: Address },
  ): Promise<Hash>
  /** "Bridges" `amount` of `token` to itself on `network`, then transfers it to `to` (a fee beside a payment). */
  transferBridged(network: string, args: { token: Address; to: Address; amount: bigint }): Promise<Hash>
  /** Simulates and sends one contract call from the operator on `network` (in its nonce queue); the mined hash. */
  execute(network: string, call: ContractCall): Promise<Hash>
}

/** Creates the operator of a sandbox over its live chains (the key is roles.operator, funded with ETH on each). */
export function createOperator(chains: ReadonlyMap<string, LiveChain>): SandboxOperator | null {
  const first = chains.values().next().value as LiveChain | undefined
  if (!first) return null
  const senders = new Map<string, TransactionSender>()

  const chainOf = (network: string): LiveChain => {
    const chain = chains.get(network)
    if (!chain) throw new Error(`no live chain for ${network}`)
    return chain
  }
  const senderOf = (network: string): TransactionSender => {
    let sender = senders.get(network)
    if (!sender) {
      sender = createSender(chainOf(network), first.roles.operator.privateKey, network)
      senders.set(network, sender)
    }
    return sender
  }

  /** Simulates then sends one call from the operator; resolves with the mined, successful tx hash. */
  const send = async (network: string, call: ContractCall): Promise<Hash> =>
    (await senderOf(network).send(call)).transactionHash

  const address = first.roles.operator.address
  return {
    address,
    execute: send,
    submitPermit(network, permit) {
      const { v, r, s, yParity } = parseSignature(permit.signature)
      return send(network, {
        to: permit.token,
        abi: erc2612Abi,
        functionName: 'permit',
        args: [
          permit.owner,
          permit.spender ?? PERMIT2_ADDRESS,
          permit.value,
          permit.deadline,
          Number(v ?? BigInt(yParity + 27)),
          r,
          s,
        ],
      })
    },
    pullWithWitness(network, t) {
      return send(network, {
        to: PERMIT2_ADDRESS,
        abi: permit2Abi,
        functionName: 'permitWitnessTransferFrom',
        args: [
          { permitted: t.permitted, nonce: t.nonce, deadline: t.deadline },
          t.permitted.map((p, i) => ({ to: t.recipients[i]!, requestedAmount: p.amount })),
          t.owner,
          t.witness,
          t.witnessTypeString,
          t.signature,
        ],
      })
    },
    async transferBridged(network, args) {
      await chainOf(network).fund(args.token, address, args.amount)
      return send(network, {
        to: args.token,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [args.to, args.amount],
      })
    },
    async payThroughFeeProxy(network, args) {
      const chain = chainOf(network)
      const proxy = chain.contracts.ERC20FeeProxy
      if (!proxy) throw new Error(`ERC20FeeProxy is not installed on ${network}`)
      await chain.fund(args.token, address, args.amount + args.fee)
      if ((await chain.allowance(args.token, address, proxy)) < args.amount + args.fee) {
        await send(network, {
          to: args.token,
          abi: erc20Abi,
          functionName: 'approve',
          args: [proxy, maxUint256],
        })
      }
      return send(network, {
        to: proxy,
        abi: erc20FeeProxyAbi,
        functionName: 'transferFromWithReferenceAndFee',
        args: [args.token, args.to, args.amount, args.reference, args.fee, args.feeAddress],
      })
    },
  }
}
