// Checks of national and international bank identifiers, from their public definitions. Each returns null when
// the value is valid, or the reason it is not. Values are compared without spaces (and hyphens for numbers).
import { isCountryCode } from '../../contract/iso-codes.ts'

/** Removes spaces (and hyphens when `hyphens`) and upper-cases: how identifiers are written vs. compared. */
export function compact(value: string, hyphens = true): string {
  return value.replace(hyphens ? /[\s-]/g : /\s/g, '').toUpperCase()
}

/**
 * IBAN lengths per country code (SWIFT IBAN registry). French overseas departments and territories use FR, the
 * Crown Dependencies GB and Åland FI, so their codes are not listed on their own.
 */
export const ibanLengths: Readonly<Record<string, number>> = Object.freeze({
  AD: 24,
  AE: 23,
  AL: 28,
  AT: 20,
  AZ: 28,
  BA: 20,
  BE: 16,
  BG: 22,
  BH: 22,
  BI: 27,
  BR: 29,
  BY: 28,
  CH: 21,
  CR: 22,
  CY: 28,
  CZ: 24,
  DE: 22,
  DJ: 27,
  DK: 18,
  DO: 28,
  EE: 20,
  EG: 29,
  ES: 24,
  FI: 18,
  FK: 18,
  FO: 18,
  FR: 27,
  GB: 22,
  GE: 22,
  GI: 23,
  GL: 18,
  GR: 27,
  GT: 28,
  HN: 28,
  HR: 21,
  HU: 28,
  IE: 22,
  IL: 23,
  IQ: 23,
  IS: 26,
  IT: 27,
  JO: 30,
  KW: 30,
  KZ: 20,
  LB: 28,
  LC: 32,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  LY: 25,
  MC: 27,
  MD: 24,
  ME: 22,
  MK: 19,
  MN: 20,
  MR: 27,
  MT: 31,
  MU: 30,
  NI: 28,
  NL: 18,
  NO: 15,
  OM: 23,
  PK: 24,
  PL: 28,
  PS: 29,
  PT: 25,
  QA: 29,
  RO: 24,
  RS: 22,
  RU: 33,
  SA: 24,
  SC: 31,
  SD: 18,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  SO: 23,
  ST: 25,
  SV: 28,
  TL: 23,
  TN: 24,
  TR: 26,
  UA: 29,
  VA: 22,
  VG: 24,
  XK: 20,
  YE: 30,
})

/** Whether accounts of `country` are identified by IBAN. */
export function usesIban(country: string): boolean {
  return Object.hasOwn(ibanLengths, country.toUpperCase())
}

/** `numeric` (digits only, any length) modulo 97, computed in chunks. */
function mod97(numeric: string): number {
  let rest = 0
  for (let i = 0; i < numeric.length; i += 7) rest = Number(`${rest}${numeric.slice(i, i + 7)}`) % 97
  return rest
}

/** IBAN (ISO 13616): known country, that country's length, and the mod-97 check (ISO 7064) equal to 1. */
export function ibanProblem(value: string): string | null {
  const iban = compact(value, false)
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban))
    return 'IBAN must be a country code, 2 check digits and the account'
  const country = iban.slice(0, 2)
  const length = ibanLengths[country]
  if (length === undefined) return `IBAN country ${country} does not issue IBANs`
  if (iban.length !== length) return `IBAN for ${country} must be ${length} characters (got ${iban.length})`
  const rearranged = iban.slice(4) + iban.slice(0, 4)
  const numeric = rearranged.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55))
  return mod97(numeric) === 1 ? null : 'IBAN check digits do not match (mod-97)'
}

/** ABA routing number: 9 digits, a Federal Reserve prefix, and the 3-7-1 weighted checksum. */
export function abaProblem(value: string): string | null {
  const aba = compact(value)
  if (!/^\d{9}$/.test(aba)) return 'routing number must be 9 digits'
  const prefix = Number(aba.slice(0, 2))
  const validPrefix =
    prefix <= 12 || (prefix >= 21 && prefix <= 32) || (prefix >= 61 && prefix <= 72) || prefix === 80
  if (!validPrefix) return `routing number prefix ${aba.slice(0, 2)} is not a Federal Reserve routing symbol`
  const d = [...aba].map(Number)
  const sum = 3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]! + d[8]!)
  return sum % 10 === 0 ? null : 'routing number fails the ABA checksum'
}

/** BIC (ISO 9362): 4-letter institution, a real country, 2-character location, optional 3-character branch. */
export function bicProblem(value: string): string | null {
  const bic = compact(value)
  if (!/^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(bic)) {
    return 'SWIFT/BIC must be 8 or 11 characters: bank (4 letters), country (2), location (2), branch (3, optional)'
  }
  const country = bic.slice(4, 6)
  return isCountryCode(country) || country === 'XK' ? null : `SWIFT/BIC country ${country} does not exist`
}

/** UK sort code: 6 digits (written 20-00-00 or 200000). */
export function sortCodeProblem(value: string): string | null {
  return /^\d{6}$/.test(compact(value)) ? null : 'sort code must be 6 digits'
}

/** Indian Financial System Code: 4 letters (bank), a zero, 6 letters or digits (branch). */
export function ifscProblem(value: string): string | null {
  return /^[A-Z]{4}0[A-Z0-9]{6}$/.test(compact(value))
    ? null
    : 'IFSC must be 4 letters, 0, then 6 letters or digits'
}

/** Australian BSB: 6 digits (written 062-000 or 062000). */
export function bsbProblem(value: string): string | null {
  return /^\d{6}$/.test(compact(value)) ? null : 'BSB must be 6 digits'
}

// RIB letters stand for digits: A/J -> 1, B/K/S -> 2, ... I/R/Z -> 9.
const ribLetter = (c: string) => {
  const code = c.charCodeAt(0) - 65
  return String(code < 9 ? code + 1 : code < 18 ? code - 8 : code - 16)
}

/** French RIB: bank (5 digits), branch (5 digits), account (11 letters or digits), key (2 digits, mod-97). */
export function ribProblem(value: string): string | null {
  const rib = compact(value)
  const m = /^(\d{5})(\d{5})([A-Z0-9]{11})(\d{2})$/.exec(rib)
  if (!m) return 'RIB must be bank code (5 digits), branch code (5), account number (11) and key (2)'
  const account = m[3]!.replace(/[A-Z]/g, ribLetter)
  const key = 97 - ((89 * Number(m[1]) + 15 * Number(m[2]) + 3 * Number(account)) % 97)
  return key === Number(m[4]) ? null : 'RIB key does not match the bank, branch and account numbers'
}
