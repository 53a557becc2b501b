// A payer's Gnosis Safe in the tests (api-features/safe-multisig-payments.mdx): created through the canonical
// SafeProxyFactory v1.4.1 the sandbox installs on its anvil, owners sign the EIP-712 SafeTx hash, and one owner's
// wallet sends execTransaction. The API's transactions run as one MultiSendCallOnly batch (delegatecall).
import {
  type Address,
  concat,
  encodeFunctionData,
  encodePacked,
  type Hex,
  hashTypedData,
  parseAbi,
  parseEventLogs,
  size,
  zeroAddress,
} from 'viem'
import type { PrivateKeyAccount } from 'viem/accounts'
import { safeContracts } from '../../src/chain/safe.ts'
import { type ApiTransaction, type payer, weiOf } from './chain.ts'

export const safeAbi = parseAbi([
  'function setup(address[] owners, uint256 threshold, address to, bytes data, address fallbackHandler, address paymentToken, uint256 payment, address paymentReceiver)',
  'function nonce() view returns (uint256)',
  'function getOwners() view returns (address[])',
  'function getThreshold() view returns (uint256)',
  'function getTransactionHash(address to, uint256 value, bytes data, uint8 operation, uint256 safeTxGas, uint256 baseGas, uint256 gasPrice, address gasToken, address refundReceiver, uint256 nonce) view returns (bytes32)',
  'function execTransaction(address to, uint256 value, bytes data, uint8 operation, uint256 safeTxGas, uint256 baseGas, uint256 gasPrice, address gasToken, address refundReceiver, bytes signatures) payable returns (bool)',
  'event ExecutionSuccess(bytes32 indexed txHash, uint256 payment)',
  'event ExecutionFailure(bytes32 indexed txHash, uint256 payment)',
])
const factoryAbi = parseAbi([
  'function createProxyWithNonce(address singleton, bytes initializer, uint256 saltNonce) returns (address)',
  'event ProxyCreation(address indexed proxy, address singleton)',
])
const multiSendAbi = parseAbi(['function multiSend(bytes transactions) payable'])

type Clients = ReturnType<typeof payer>

/** Creates a Safe of `owners` with `threshold` through the canonical proxy factory; answers its address. */
export async function createSafe(
  { publicClient, wallet }: Clients,
  owners: Address[],
  threshold: number,
): Promise<Address> {
  const c = safeContracts()
  const initializer = encodeFunctionData({
    abi: safeAbi,
    functionName: 'setup',
    args: [
      owners,
      BigInt(threshold),
      zeroAddress,
      '0x',
      c.CompatibilityFallbackHandler.address,
      zeroAddress,
      0n,
      zeroAddress,
    ],
  })
  const hash = await wallet.writeContract({
    address: c.SafeProxyFactory.address,
    abi: factoryAbi,
    functionName: 'createProxyWithNonce',
    args: [c.Safe.address, initializer, BigInt(Date.now())],
    chain: wallet.chain ?? null,
  })
  const receipt = await publicClient.waitForTransactionReceipt({ hash })
  const [created] = parseEventLogs({ abi: factoryAbi, logs: receipt.logs, eventName: 'ProxyCreation' })
  if (!created) throw new Error('no ProxyCreation event')
  return created.args.proxy
}

/** The Safe transaction running `transactions` in order: a delegatecall of MultiSendCallOnly.multiSend. */
export function multiSendOf(transactions: ApiTransaction[]) {
  const packed = concat(
    transactions.map((tx) =>
      encodePacked(
        ['uint8', 'address', 'uint256', 'uint256', 'bytes'],
        [0, tx.to as Address, weiOf(tx), BigInt(size(tx.data as Hex)), tx.data as Hex],
      ),
    ),
  )
  return {
    to: safeContracts().MultiSendCallOnly.address,
    value: 0n,
    data: encodeFunctionData({ abi: multiSendAbi, functionName: 'multiSend', args: [packed] }),
    operation: 1,
  }
}

/** The EIP-712 SafeTx hash (the safeTxHash) of `tx` at `nonce`, as Safe v1.4.1 computes it. */
export function safeTxHash(
  chainId: number,
  safe: Address,
  tx: { to: Address; value: bigint; data: Hex; operation: number },
  nonce: bigint,
) {
  return hashTypedData(typedSafeTx(chainId, safe, tx, nonce))
}

function typedSafeTx(
  chainId: number,
  safe: Address,
  tx: { to: Address; value: bigint; data: Hex; operation: number },
  nonce: bigint,
) {
  return {
    domain: { chainId, verifyingContract: safe },
    types: {
      SafeTx: [
        { name: 'to', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'data', type: 'bytes' },
        { name: 'operation', type: 'uint8' },
        { name: 'safeTxGas', type: 'uint256' },
        { name: 'baseGas', type: 'uint256' },
        { name: 'gasPrice', type: 'uint256' },
        { name: 'gasToken', type: 'address' },
        { name: 'refundReceiver', type: 'address' },
        { name: 'nonce', type: 'uint256' },
      ],
    },
    primaryType: 'SafeTx' as const,
    message: {
      ...tx,
      safeTxGas: 0n,
      baseGas: 0n,
      gasPrice: 0n,
      gasToken: zeroAddress,
      refundReceiver: zeroAddress,
      nonce,
    },
  }
}

/** The proposal of a Safe transaction: its hash, and the owners' signatures (EIP-712, sorted by owner). */
export async function proposeSafeTx(
  { publicClient }: Pick<Clients, 'publicClient'>,
  safe: Address,
  tx: { to: Address; value: bigint; data: Hex; operation: number },
  signers: PrivateKeyAccount[],
) {
  const chainId = await publicClient.getChainId()
  const nonce = await publicClient.readContract({ address: safe, abi: safeAbi, functionName: 'nonce' })
  const typed = typedSafeTx(chainId, safe, tx, nonce)
  const sorted = [...signers].sort((a, b) => (BigInt(a.address) < BigInt(b.address) ? -1 : 1))
  const signatures = concat(await Promise.all(sorted.map((s) => s.signTypedData(typed))))
  return { safeTxHash: hashTypedData(typed), signatures, nonce }
}

/** Sends execTransaction of a proposed Safe transaction from `wallet`; answers the receipt and its events. */
export async function execSafeTx(
  { publicClient, wallet }: Clients,
  safe: Address,
  tx: { to: Address; value: bigint; data: Hex; operation: number },
  signatures: Hex,
) {
  const hash = await wallet.writeContract({
    address: safe,
    abi: safeAbi,
    functionName: 'execTransaction',
    args: [tx.to, tx.value, tx.data, tx.operation, 0n, 0n, 0n, zeroAddress, zeroAddress, signatures],
    chain: wallet.chain ?? null,
    gas: 1_000_000n,
  })
  const receipt = await publicClient.waitForTransactionReceipt({ hash })
  return { receipt, events: parseEventLogs({ abi: safeAbi, logs: receipt.logs }) }
}
