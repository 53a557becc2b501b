import { describe, expect, it } from 'vitest'
import { type BankFields, bankDetailProblems } from './bank-rules.ts'

const us: BankFields = {
  rails: 'local',
  country: 'US',
  currency: 'usd',
  accountNumber: '253009233489',
  routingNumber: '026013356',
}
const uk: BankFields = {
  rails: 'local',
  country: 'GB',
  currency: 'gbp',
  accountNumber: '12345678',
  sortCode: '200000',
}
const de: BankFields = { rails: 'local', country: 'DE', currency: 'eur', iban: 'DE89370400440532013000' }
const swift: BankFields = {
  rails: 'swift',
  country: 'DE',
  currency: 'eur',
  iban: 'DE89370400440532013000',
  swiftBic: 'DEUTDEFF',
}

const valid: [string, BankFields][] = [
  ['a US account on local rails (ABA + account, USD)', us],
  ['a UK account on local rails (sort code + 8 digits, GBP)', uk],
  ['a German IBAN on local rails', de],
  [
    'a French RIB on local rails',
    { rails: 'local', country: 'FR', currency: 'eur', ribNumber: '20041010050500013M02606' },
  ],
  [
    'a French IBAN on local rails',
    { rails: 'local', country: 'FR', currency: 'eur', iban: 'FR1420041010050500013M02606' },
  ],
  [
    'an Indian account (IFSC + account, INR)',
    { rails: 'local', country: 'IN', currency: 'inr', ifsc: 'SBIN0000300', accountNumber: '00000012345678' },
  ],
  [
    'an Australian account (BSB + account, AUD)',
    { rails: 'local', country: 'AU', currency: 'aud', bsbNumber: '062-000', accountNumber: '12345678' },
  ],
  ['a SWIFT transfer to a German IBAN', swift],
  [
    'a SWIFT transfer to a Japanese account (no IBAN there)',
    { rails: 'swift', country: 'JP', currency: 'jpy', swiftBic: 'MHCBJPJT', accountNumber: '1234567' },
  ],
  ['a US wire (ABA + account)', { ...us, rails: 'wire' }],
  [
    'a local account in a country without a domestic rule',
    { rails: 'local', country: 'JP', currency: 'jpy', accountNumber: '1234567' },
  ],
]

const invalid: [string, BankFields, string][] = [
  ['a US account without routing number', { ...us, routingNumber: undefined }, 'routingNumber'],
  ['a US routing number failing its checksum', { ...us, routingNumber: '026013357' }, 'routingNumber'],
  ['a US account paid out in EUR', { ...us, currency: 'eur' }, 'currency'],
  ['a US account number with letters', { ...us, accountNumber: '2530A9233489' }, 'accountNumber'],
  ['a UK account with 7 digits', { ...uk, accountNumber: '1234567' }, 'accountNumber'],
  ['a UK account without sort code', { ...uk, sortCode: undefined }, 'sortCode'],
  ['a UK sort code of 5 digits', { ...uk, sortCode: '20000' }, 'sortCode'],
  ['a German account without IBAN', { ...de, iban: undefined, accountNumber: '0532013000' }, 'iban'],
  ['a German IBAN with a wrong check digit', { ...de, iban: 'DE89370400440532013001' }, 'iban'],
  [
    'a French RIB with a wrong key',
    { rails: 'local', country: 'FR', currency: 'eur', ribNumber: '20041010050500013M02607' },
    'ribNumber',
  ],
  [
    'an Indian IFSC without the 0',
    { rails: 'local', country: 'IN', currency: 'inr', ifsc: 'SBIN1000300', accountNumber: '00000012345678' },
    'ifsc',
  ],
  [
    'an Australian BSB of 5 digits',
    { rails: 'local', country: 'AU', currency: 'aud', bsbNumber: '06200', accountNumber: '12345678' },
    'bsbNumber',
  ],
  ['a SWIFT transfer without BIC', { ...swift, swiftBic: undefined }, 'swiftBic'],
  [
    'a SWIFT transfer to a German bank without IBAN',
    { ...swift, iban: undefined, accountNumber: '0532013000' },
    'iban',
  ],
  ['a malformed BIC', { ...swift, swiftBic: 'DEUTDE' }, 'swiftBic'],
  [
    'a local account with nothing to pay into',
    { rails: 'local', country: 'JP', currency: 'jpy' },
    'accountNumber',
  ],
]

describe('bank details per rail and country', () => {
  it.each(valid)('accepts %s', (_name, fields) => {
    expect(bankDetailProblems(fields)).toEqual([])
  })
  it.each(invalid)('refuses %s, naming the field', (_name, fields, field) => {
    const problems = bankDetailProblems(fields)
    expect(problems.map((p) => p.field)).toContain(field)
    for (const p of problems) expect(p.message.length).toBeGreaterThan(5)
  })
})
