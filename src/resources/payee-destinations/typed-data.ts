// The EIP-712 document a payee signs to add or deactivate a destination. The service's documents do not publish
// its types: this one binds the action, wallet, token and nonce in the message and the chain in the domain. Its
// values are all strings and addresses so the JSON answer can be handed to any wallet as-is (no bigint fields).
import { keccak256, numberToHex, size } from 'viem'
import type { SigningNonce } from './schema.ts'

/** The domain name of the sandbox's payee-destination signatures. */
export const PAYEE_DESTINATION_DOMAIN = 'Request Network Payee Destination'

/** The typed data of a nonce, in the shape viem's signTypedData / verifyTypedData and eth_signTypedData_v4 take. */
export function payeeDestinationTypedData(nonce: SigningNonce) {
  return {
    domain: { name: PAYEE_DESTINATION_DOMAIN, version: '1', chainId: nonce.chainId },
    types: {
      PayeeDestination: [
        { name: 'action', type: 'string' },
        { name: 'walletAddress', type: 'address' },
        { name: 'tokenAddress', type: 'address' },
        { name: 'nonce', type: 'string' },
      ],
    },
    primaryType: 'PayeeDestination' as const,
    message: {
      action: nonce.action,
      walletAddress: nonce.walletAddress,
      tokenAddress: nonce.tokenAddress,
      nonce: nonce.nonce,
    },
  }
}

/**
 * The ERC-7930 checksum of an EVM address on a chain: the first 4 bytes of keccak256 over the binary interoperable
 * address without its version (chain type 0x0000, chain reference length and bytes, address length and bytes).
 */
export function interopChecksum(address: `0x${string}`, chainId: number): string {
  const reference = numberToHex(chainId)
  const referenceHex = reference.slice(2).padStart(Math.ceil((reference.length - 2) / 2) * 2, '0')
  const referenceLength = (referenceHex.length / 2).toString(16).padStart(2, '0')
  const addressLength = size(address).toString(16).padStart(2, '0')
  const binary = `0x0000${referenceLength}${referenceHex}${addressLength}${address.slice(2)}` as const
  return keccak256(binary).slice(2, 10).toUpperCase()
}

/** `wallet@eip155:chainId#checksum:token`: the composite destination id of secure payments (ERC-7828 + token). */
export function compositeDestinationId(wallet: `0x${string}`, chainId: number, token: `0x${string}`): string {
  return `${wallet}@eip155:${chainId}#${interopChecksum(wallet, chainId)}:${token}`
}
