import { describe, expect, it } from 'vitest'
import { countryName, isCountryCode, isCurrencyCode, isIso4217Code, isoListSizes } from './iso-codes.ts'

describe('ISO reference lists', () => {
  it('holds the 249 assigned country codes and the currencies in force', () => {
    expect(isoListSizes.countries).toBe(249)
    expect(isoListSizes.currencies).toBeGreaterThan(150)
  })
  it('knows every country and currency the runtime (ICU) names, except withdrawn currencies', () => {
    const regions = new Intl.DisplayNames(['en'], { type: 'region' })
    for (const code of ['US', 'FR', 'GB', 'DE', 'IN', 'AU', 'NZ', 'JP', 'BR', 'SS', 'AX']) {
      expect(isCountryCode(code)).toBe(true)
      expect(countryName(code)).toBe(regions.of(code))
    }
    for (const code of Intl.supportedValuesOf('currency')) {
      if (['HRK', 'CUC', 'SLL', 'ZWL'].includes(code)) expect(isIso4217Code(code)).toBe(false)
      else expect(isIso4217Code(code)).toBe(true)
    }
  })
  it('accepts either case and refuses codes that are not assigned', () => {
    expect(isCountryCode('us')).toBe(true)
    expect(isCurrencyCode('usd')).toBe(true)
    for (const code of ['XX', 'UK', 'EU', 'ZZ', 'U', 'USA']) expect(isCountryCode(code)).toBe(false)
    for (const code of ['XYZ', 'EURO', 'US', 'HRK']) expect(isCurrencyCode(code)).toBe(false)
  })
  it('keeps fund, metal and test codes out of the bank currencies', () => {
    for (const code of ['XAU', 'XTS', 'XXX', 'USN', 'XDR']) {
      expect(isIso4217Code(code)).toBe(true)
      expect(isCurrencyCode(code)).toBe(false)
    }
  })
})
