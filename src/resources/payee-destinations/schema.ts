import { z } from 'zod'
import { Address, AnyAddress } from '../../contract/primitives.ts'

/** What a signing nonce authorises: registering a destination or deactivating it. */
export const SigningAction = z.enum(['add', 'deactivate'])
export type SigningAction = z.infer<typeof SigningAction>

/** Query of `GET /v2/payee-destination/signing-data`. */
export const SigningDataQuery = z.object({
  walletAddress: Address,
  action: SigningAction,
  tokenAddress: Address,
  chainId: z.string().regex(/^[1-9]\d{0,15}$/, { message: 'chainId must be a positive integer' }),
})
export type SigningDataQuery = z.infer<typeof SigningDataQuery>

/** Body of `POST /v2/payee-destination` and `DELETE /v2/payee-destination/{destinationId}`. */
export const SignedBody = z.object({
  signature: z
    .string()
    .regex(/^0x[a-fA-F0-9]{130}$/, { message: 'signature must be 0x followed by 130 hex characters' }),
  nonce: z.string().min(1),
})
export type SignedBody = z.infer<typeof SignedBody>

/** Query of `GET /v2/payee-destination`. */
export const ActiveDestinationQuery = z.object({ walletAddress: Address })

/** Query of `GET /v1/payee-destination/payout-lookup`: the recipient, "Ethereum or Tron format" (the page). */
export const PayoutLookupQuery = z.object({ walletAddress: AnyAddress })

/** A nonce issued by signing-data: single use, bound to one wallet, token, chain and action. */
export interface SigningNonce {
  nonce: string
  action: SigningAction
  walletAddress: `0x${string}`
  tokenAddress: `0x${string}`
  chainId: number
  /** ISO time on the tenant's clock after which the nonce is refused */
  expiresAt: string
  usedAt: string | null
}

/** A payee destination: where a wallet wants to be paid (one token on one chain). */
export const PayeeDestinationRecord = z.object({
  /** `network:walletAddress:tokenAddress` (checksummed addresses) */
  id: z.string(),
  /** the composite ERC-7828 form secure payments take: `wallet@eip155:chainId#checksum:token` */
  destinationId: z.string(),
  walletAddress: z.string(),
  tokenAddress: z.string(),
  chainId: z.number().int(),
  network: z.string(),
  /** the token's id in the token list (`USDC-sepolia`) */
  currency: z.string(),
  active: z.boolean(),
  /** the public client ID it was registered through (null with an API key) */
  clientId: z.string().nullable(),
  /** the KYT policy a wallet session set (`/v1/payee-destination`), null or absent for none */
  accessPolicy: z
    .object({
      mode: z.enum(['off', 'kyt_all_wallets']).optional(),
      screeningProvider: z.enum(['hypernative', 'merklescience']).nullable().optional(),
      hideUntilApproved: z.boolean().optional(),
      hidePayeeAddress: z.boolean().optional(),
    })
    .nullable()
    .optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type PayeeDestinationRecord = z.infer<typeof PayeeDestinationRecord>

/** A destination as the endpoints answer it. */
export const PayeeDestinationResponse = PayeeDestinationRecord.omit({ clientId: true })

/** The answer of GET /v2/payee-destination/signing-data: a single-use nonce and the EIP-712 document to sign. */
export const SigningDataResponse = z.object({
  nonce: z.string().meta({ example: '9f86d081884c7d659a2feaa0c55ad015' }),
  expiresAt: z.string().meta({ example: '2026-01-01T00:10:00.000Z' }),
  domain: z.object({
    name: z.string().meta({ example: 'Request Network Payee Destination' }),
    version: z.literal('1'),
    chainId: z.number().meta({ example: 11155111 }),
  }),
  types: z.object({
    PayeeDestination: z.array(z.object({ name: z.string(), type: z.string() })).meta({
      example: [
        { name: 'action', type: 'string' },
        { name: 'walletAddress', type: 'address' },
        { name: 'tokenAddress', type: 'address' },
        { name: 'nonce', type: 'string' },
      ],
    }),
  }),
  primaryType: z.literal('PayeeDestination'),
  message: z.object({
    action: SigningAction,
    walletAddress: z.string().meta({ example: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7' }),
    tokenAddress: z.string().meta({ example: '0x370DE27fdb7D1Ff1e1BaA7D11c5820a324Cf623C' }),
    nonce: z.string().meta({ example: '9f86d081884c7d659a2feaa0c55ad015' }),
  }),
})
