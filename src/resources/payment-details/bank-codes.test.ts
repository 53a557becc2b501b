import { describe, expect, it } from 'vitest'
import {
  abaProblem,
  bicProblem,
  bsbProblem,
  ibanProblem,
  ifscProblem,
  ribProblem,
  sortCodeProblem,
} from './bank-codes.ts'

// Valid examples are published ones (bank documentation, the IBAN registry's examples, the service's own docs).
const table: [string, (v: string) => string | null, string[], [string, RegExp][]][] = [
  [
    'ABA routing numbers',
    abaProblem,
    ['026013356', '021000021', '011000015', '121000358', '322271627'],
    [
      ['026013357', /ABA checksum/],
      ['02601335', /9 digits/],
      ['0260133560', /9 digits/],
      ['991000024', /Federal Reserve/],
      ['ABCDEFGHI', /9 digits/],
    ],
  ],
  [
    'IBANs',
    ibanProblem,
    [
      'DE89370400440532013000',
      'GB82WEST12345698765432',
      'GB82 WEST 1234 5698 7654 32',
      'FR1420041010050500013M02606',
      'NL91ABNA0417164300',
      'ES9121000418450200051332',
      'IT60X0542811101000000123456',
      'BE68539007547034',
      'CH9300762011623852957',
      'NO9386011117947',
      'PL61109010140000071219812874',
      'AT611904300234573201',
      'SA0380000000608010167519',
      'MT84MALT011000012345MTLCAST001S',
    ],
    [
      ['DE89370400440532013001', /mod-97/],
      ['GB83WEST12345698765432', /mod-97/],
      ['DE8937040044053201300', /22 characters/],
      ['US12345678901234567890', /does not issue IBANs/],
      ['1234', /country code/],
    ],
  ],
  [
    'SWIFT/BIC codes',
    bicProblem,
    ['DEUTDEFF', 'DEUTDEFF500', 'BARCGB22', 'BNPAFRPPXXX', 'CHASUS33', 'MHCBJPJT'],
    [
      ['DEUTDEF', /8 or 11/],
      ['DEUTDEFF50', /8 or 11/],
      ['DEU1DEFF', /8 or 11/],
      ['DEUTXXFF', /country XX does not exist/],
    ],
  ],
  [
    'UK sort codes',
    sortCodeProblem,
    ['200000', '20-00-00', '40 47 84'],
    [
      ['20000', /6 digits/],
      ['2000001', /6 digits/],
      ['ABCDEF', /6 digits/],
    ],
  ],
  [
    'IFSC codes',
    ifscProblem,
    ['SBIN0000300', 'HDFC0000001', 'ICIC0000011'],
    [
      ['SBIN1000300', /4 letters, 0/],
      ['SBIN000030', /4 letters, 0/],
      ['1BIN0000300', /4 letters, 0/],
    ],
  ],
  [
    'Australian BSBs',
    bsbProblem,
    ['062000', '062-000', '083-004'],
    [
      ['06200', /6 digits/],
      ['0620001', /6 digits/],
    ],
  ],
  [
    'French RIBs',
    ribProblem,
    ['20041010050500013M02606', '30006 00001 12345678901 89'],
    [
      ['20041010050500013M02607', /key does not match/],
      ['3000600001123456789018', /bank code/],
    ],
  ],
]

describe.each(table)('%s', (_name, check, valid, invalid) => {
  it.each(valid)('accepts %s', (value) => {
    expect(check(value)).toBeNull()
  })
  it.each(invalid)('refuses %s', (value, reason) => {
    expect(check(value)).toMatch(reason)
  })
})

describe('IBANs and RIBs agree', () => {
  it('finds a valid RIB key inside every valid French IBAN', () => {
    const ibans = [
      'FR1420041010050500013M02606',
      'FR7630006000011234567890189',
      'FR7630001007941234567890185',
      'FR7610107001011234567890129',
      'FR7630004000031234567890143',
    ]
    for (const iban of ibans) {
      expect(ibanProblem(iban)).toBeNull()
      expect(ribProblem(iban.slice(4))).toBeNull()
    }
  })
})
