import { readFileSync } from 'node:fs'
import {
  type Address,
  concat,
  encodeAbiParameters,
  type Hex,
  hashTypedData,
  keccak256,
  maxUint256,
  toHex,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { PERMIT2_ADDRESS } from '../../chain/index.ts'
import {
  type IntentTypedData,
  intentTypedData,
  permitTypedData,
  recoverIntentSigner,
  recoverPermitSigner,
  WITNESS_TYPE_STRING,
  witnessHash,
} from './typed-data.ts'

const reference = new URL('../../../test/fixtures/official/openapi-v2.json', import.meta.url)
const examples = JSON.parse(readFileSync(reference, 'utf8')).paths['/v2/request/{requestId}/pay'].get
  .responses['200'].content['application/json'].examples
const example = JSON.parse(examples.currencyThatSupportsEIP2612.value.paymentIntent) as IntentTypedData

/** The digest as SandboxPermit2 computes it on chain: type hash from the prefix + witness type string. */
function onChainDigest(typed: IntentTypedData, spender: Address): Hex {
  const word = (types: string[], values: unknown[]) =>
    encodeAbiParameters(
      types.map((type) => ({ type })),
      values,
    )
  const permissionType = keccak256(toHex('TokenPermissions(address token,uint256 amount)'))
  const permissions = typed.values.permitted.map((p) =>
    keccak256(word(['bytes32', 'address', 'uint256'], [permissionType, p.token, BigInt(p.amount)])),
  )
  const typeHash = keccak256(
    toHex(
      `PermitBatchWitnessTransferFrom(TokenPermissions[] permitted,address spender,uint256 nonce,uint256 deadline,${WITNESS_TYPE_STRING}`,
    ),
  )
  const structHash = keccak256(
    word(
      ['bytes32', 'bytes32', 'address', 'uint256', 'uint256', 'bytes32'],
      [
        typeHash,
        keccak256(concat(permissions)),
        spender,
        BigInt(typed.values.nonce),
        BigInt(typed.values.deadline),
        witnessHash(typed.values.witness),
      ],
    ),
  )
  const domain = keccak256(
    word(
      ['bytes32', 'bytes32', 'uint256', 'address'],
      [
        keccak256(toHex('EIP712Domain(string name,uint256 chainId,address verifyingContract)')),
        keccak256(toHex('Permit2')),
        BigInt(typed.domain.chainId),
        typed.domain.verifyingContract,
      ],
    ),
  )
  return keccak256(concat(['0x1901', domain, structHash]))
}

describe('payment intent typed data', () => {
  it('uses the types of the service example and the witness type string Permit2 hashes to the same digest', () => {
    const typed = intentTypedData(42161, example.values)
    expect(typed.types).toEqual(example.types)
    expect(typed.domain).toEqual({ name: 'Permit2', chainId: 42161, verifyingContract: PERMIT2_ADDRESS })
    const eip712 = hashTypedData({
      domain: typed.domain,
      types: typed.types,
      primaryType: 'PermitBatchWitnessTransferFrom',
      message: typed.values as never,
    })
    expect(onChainDigest(typed, typed.values.spender)).toBe(eip712)
  })

  it('recovers the wallet that signed the service example intent, and another key as another address', async () => {
    const payer = privateKeyToAccount(generatePrivateKey())
    const typed = intentTypedData(42161, example.values)
    const signature = await payer.signTypedData({
      domain: typed.domain,
      types: typed.types,
      primaryType: 'PermitBatchWitnessTransferFrom',
      message: typed.values as never,
    })
    expect(await recoverIntentSigner(typed, signature)).toBe(payer.address)
    const changed = { ...typed, values: { ...typed.values, nonce: '1' } }
    expect(await recoverIntentSigner(changed, signature)).not.toBe(payer.address)
  })

  it('builds the EIP-2612 permit for Permit2 with an unlimited value and recovers its signer', async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const token: Address = '0xaf88d065e77c8cC2239327C5EDb3A432268e5831'
    const permit = permitTypedData({
      token,
      name: 'USD Coin',
      version: '2',
      chainId: 42161,
      owner: owner.address,
      nonce: 3n,
      deadline: 1742205771,
    })
    expect(permit.values).toEqual({
      owner: owner.address,
      spender: PERMIT2_ADDRESS,
      value: maxUint256.toString(),
      nonce: '3',
      deadline: 1742205771,
    })
    const signature = await owner.signTypedData({
      domain: permit.domain,
      types: permit.types,
      primaryType: 'Permit',
      message: permit.values as never,
    })
    expect(await recoverPermitSigner(permit, signature)).toBe(owner.address)
  })
})
