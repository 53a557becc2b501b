import { toHex } from 'viem'
import { english, generateMnemonic, mnemonicToAccount, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { addressOfKey, mnemonicKeys } from './hd-keys.ts'

describe('mnemonicKeys', () => {
  it("derives anvil's default accounts", () => {
    const keys = mnemonicKeys('test test test test test test test test test test test junk', 10)
    expect(keys[0]).toBe('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
    expect(addressOfKey(keys[0]!)).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')
    expect(addressOfKey(keys[9]!)).toBe('0xa0Ee7A142d267C1f36714E4a8F75612F20a79720')
  })

  it('gives the keys and addresses viem derives, for random mnemonics', () => {
    for (let round = 0; round < 3; round++) {
      const mnemonic = generateMnemonic(english)
      const keys = mnemonicKeys(mnemonic, 5)
      keys.forEach((key, addressIndex) => {
        const account = mnemonicToAccount(mnemonic, { addressIndex })
        expect(key).toBe(toHex(account.getHdKey().privateKey!))
        expect(addressOfKey(key)).toBe(account.address)
        expect(addressOfKey(key)).toBe(privateKeyToAccount(key).address)
      })
    }
  })
})
