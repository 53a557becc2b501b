// The dashboard's token amounts: base units in the token's units (decimals from the currency list), raw kept.
import { describe, expect, it } from 'vitest'
import { formatUnits, tokenAmount } from './amount.ts'

describe('token amounts on the dashboard', () => {
  it('reads base units in whole tokens', () => {
    expect(formatUnits('50000000000000000000', 18)).toBe('50')
    expect(formatUnits('1500000', 6)).toBe('1.5')
    expect(formatUnits('1', 6)).toBe('0.000001')
    expect(formatUnits('0', 18)).toBe('0')
    expect(formatUnits('-2500000', 6)).toBe('-2.5')
    expect(formatUnits('0x10', 6)).toBeUndefined()
  })

  it('adds the symbol and keeps the raw value for the title', () => {
    expect(
      tokenAmount('50000000000000000000', { currency: 'FAU-sepolia', symbol: 'FAU', decimals: 18 }),
    ).toEqual({
      text: '50 FAU',
      title: '50000000000000000000 (base units of FAU-sepolia, 18 decimals)',
    })
    expect(
      tokenAmount('not a number', { currency: 'USDC-sepolia', symbol: 'USDC', decimals: 6 }),
    ).toBeUndefined()
  })
})
