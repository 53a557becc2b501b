import { verifyTypedData } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { compositeDestinationId, interopChecksum, payeeDestinationTypedData } from './typed-data.ts'

describe('payee destination typed data', () => {
  it('computes the ERC-7930 checksum of the standard example (mainnet vitalik.eth -> 4CA88C9C)', () => {
    expect(interopChecksum('0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045', 1)).toBe('4CA88C9C')
    expect(
      compositeDestinationId(
        '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
        1,
        '0x370DE27fdb7D1Ff1e1BaA7D11c5820a324Cf623C',
      ),
    ).toBe(
      '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045@eip155:1#4CA88C9C:0x370DE27fdb7D1Ff1e1BaA7D11c5820a324Cf623C',
    )
  })

  it('is a JSON-safe document a viem account signs and verifyTypedData accepts for that wallet only', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey())
    const data = payeeDestinationTypedData({
      nonce: 'abc',
      action: 'add',
      walletAddress: wallet.address,
      tokenAddress: '0x370DE27fdb7D1Ff1e1BaA7D11c5820a324Cf623C',
      chainId: 11155111,
      expiresAt: new Date().toISOString(),
      usedAt: null,
    })
    const roundTripped = JSON.parse(JSON.stringify(data))
    const signature = await wallet.signTypedData(roundTripped)
    expect(await verifyTypedData({ ...data, address: wallet.address, signature })).toBe(true)
    const other = privateKeyToAccount(generatePrivateKey()).address
    expect(await verifyTypedData({ ...data, address: other, signature })).toBe(false)
  })
})
