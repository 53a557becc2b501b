import { describe, expect, it } from 'vitest'
import { divWad, formatWad, formatWadFixed, mulWad, toWad, unitsToWad, WAD, wadToUnits } from './decimal.ts'

describe('wad arithmetic', () => {
  it('parses and writes decimals without floating-point drift', () => {
    expect(toWad('0.1') + toWad('0.2')).toBe(toWad('0.3'))
    expect(formatWad(toWad('2500'))).toBe('2500')
    expect(formatWad(divWad(WAD, toWad('3000')), 12)).toBe('0.000333333333')
    expect(formatWadFixed(mulWad(toWad('54'), toWad('1')), 2)).toBe('54.00')
  })

  it('rounds to the asked decimals and converts between base units and wads', () => {
    expect(formatWad(toWad('1.23456'), 2)).toBe('1.23')
    expect(formatWad(toWad('1.235'), 2)).toBe('1.24')
    expect(unitsToWad(1_500_000n, 6)).toBe(toWad('1.5'))
    expect(wadToUnits(toWad('1.5'), 6)).toBe(1_500_000n)
  })

  it('refuses what is not a plain decimal number', () => {
    expect(() => toWad('1e3')).toThrow(RangeError)
    expect(() => toWad('-1')).toThrow(RangeError)
  })
})
