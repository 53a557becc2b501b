// The EIP-712 documents of a cross-chain payment intent, in the ethers v5 shape the service returns
// ({domain, types, values}: no EIP712Domain entry, no primaryType), as JSON strings with decimal-string numbers.
import { type Address, type Hex, hashStruct, maxUint256, recoverTypedDataAddress } from 'viem'
import { PERMIT2_ADDRESS } from '../../chain/index.ts'

/** The types of Permit2's batch witness transfer with Request Network's PaymentIntent witness (api-contract §4). */
export const INTENT_TYPES = {
  PermitBatchWitnessTransferFrom: [
    { name: 'permitted', type: 'TokenPermissions[]' },
    { name: 'spender', type: 'address' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
    { name: 'witness', type: 'PaymentIntent' },
  ],
  TokenPermissions: [
    { name: 'token', type: 'address' },
    { name: 'amount', type: 'uint256' },
  ],
  PaymentIntent: [
    { name: 'payment_type', type: 'uint8' },
    { name: 'operator_data', type: 'OperatorData' },
    { name: 'amount', type: 'uint256' },
    { name: 'source', type: 'Domain' },
    { name: 'destination', type: 'Domain' },
    { name: 'processing_date', type: 'uint256' },
    { name: 'expires_at', type: 'uint256' },
  ],
  OperatorData: [
    { name: 'operatorId', type: 'bytes32' },
    { name: 'operator', type: 'address' },
    { name: 'treasury_account', type: 'address' },
    { name: 'fee', type: 'uint256' },
  ],
  Domain: [
    { name: 'account', type: 'address' },
    { name: 'network_id', type: 'uint256' },
    { name: 'payment_token', type: 'address' },
  ],
} as const

/**
 * What Permit2 appends to `PermitBatchWitnessTransferFrom(...,` to type the witness: the witness field, then every
 * referenced struct in alphabetical order (EIP-712 encodeType).
 */
export const WITNESS_TYPE_STRING =
  'PaymentIntent witness)' +
  'Domain(address account,uint256 network_id,address payment_token)' +
  'OperatorData(bytes32 operatorId,address operator,address treasury_account,uint256 fee)' +
  'PaymentIntent(uint8 payment_type,OperatorData operator_data,uint256 amount,Domain source,Domain destination,uint256 processing_date,uint256 expires_at)' +
  'TokenPermissions(address token,uint256 amount)'

const PERMIT_TYPES = {
  Permit: [
    { name: 'owner', type: 'address' },
    { name: 'spender', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
} as const

/** One side of the intent (payer on the source chain, payee on the destination). */
export interface IntentSide {
  account: Address
  network_id: string
  payment_token: Address
}

/** The witness the payer signs with the Permit2 transfer. */
export interface PaymentIntentWitness {
  payment_type: number
  operator_data: { operatorId: Hex; operator: Address; treasury_account: Address; fee: string }
  amount: string
  source: IntentSide
  destination: IntentSide
  processing_date: string
  expires_at: string
}

/** The values of the intent's typed data. */
export interface IntentValues {
  permitted: { token: Address; amount: string }[]
  spender: Address
  nonce: string
  deadline: string
  witness: PaymentIntentWitness
}

/** `paymentIntent` before JSON.stringify. */
export interface IntentTypedData {
  domain: { name: 'Permit2'; chainId: number; verifyingContract: Address }
  types: typeof INTENT_TYPES
  values: IntentValues
}

/** `approvalPermitPayload` before JSON.stringify. */
export interface PermitTypedData {
  domain: { name: string; version: string; chainId: number; verifyingContract: Address }
  types: typeof PERMIT_TYPES
  values: { owner: Address; spender: Address; value: string; nonce: string; deadline: number }
}

/** The Permit2 batch witness transfer the payer signs, with Permit2's domain on the source chain. */
export function intentTypedData(chainId: number, values: IntentValues): IntentTypedData {
  return {
    domain: { name: 'Permit2', chainId, verifyingContract: PERMIT2_ADDRESS },
    types: INTENT_TYPES,
    values,
  }
}

/** The EIP-2612 permit (spender Permit2, unlimited value) the payer signs when the source token supports it. */
export function permitTypedData(args: {
  token: Address
  name: string
  version: string
  chainId: number
  owner: Address
  nonce: bigint
  deadline: number
  /** the allowance's spender (default Permit2, the cross-chain path's spender) */
  spender?: Address
}): PermitTypedData {
  return {
    domain: { name: args.name, version: args.version, chainId: args.chainId, verifyingContract: args.token },
    types: PERMIT_TYPES,
    values: {
      owner: args.owner,
      spender: args.spender ?? PERMIT2_ADDRESS,
      value: maxUint256.toString(),
      nonce: args.nonce.toString(),
      deadline: args.deadline,
    },
  }
}

/** hashStruct(PaymentIntent): the `witness` argument of permitWitnessTransferFrom. */
export function witnessHash(witness: PaymentIntentWitness): Hex {
  return hashStruct({ data: witness as never, primaryType: 'PaymentIntent', types: INTENT_TYPES })
}

/** The address that signed the intent (throws on a malformed signature). */
export function recoverIntentSigner(typed: IntentTypedData, signature: Hex): Promise<Address> {
  return recoverTypedDataAddress({
    domain: typed.domain,
    types: typed.types,
    primaryType: 'PermitBatchWitnessTransferFrom',
    message: typed.values as never,
    signature,
  })
}

/** The address that signed the EIP-2612 permit (throws on a malformed signature). */
export function recoverPermitSigner(typed: PermitTypedData, signature: Hex): Promise<Address> {
  return recoverTypedDataAddress({
    domain: typed.domain,
    types: typed.types,
    primaryType: 'Permit',
    message: typed.values as never,
    signature,
  })
}
