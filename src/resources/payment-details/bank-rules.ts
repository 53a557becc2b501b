// What each payout rail needs, per country. Every identifier given is checked (checksums included) even when the
// rail does not need it; then the rail's requirements are checked. Problems name their field.
import type { FieldError } from '../../contract/sandbox-error.ts'
import {
  abaProblem,
  bicProblem,
  bsbProblem,
  compact,
  ibanProblem,
  ifscProblem,
  ribProblem,
  sortCodeProblem,
  usesIban,
} from './bank-codes.ts'

/** The bank fields the rules read (already trimmed; optional ones absent when empty). */
export interface BankFields {
  rails: 'local' | 'swift' | 'wire'
  /** ISO 3166-1 alpha-2, upper case */
  country: string
  /** ISO 4217, lower case */
  currency: string
  accountNumber?: string | undefined
  routingNumber?: string | undefined
  sortCode?: string | undefined
  iban?: string | undefined
  swiftBic?: string | undefined
  ribNumber?: string | undefined
  bsbNumber?: string | undefined
  ncc?: string | undefined
  ifsc?: string | undefined
}

const identifierChecks: [keyof BankFields, (v: string) => string | null][] = [
  ['routingNumber', abaProblem],
  ['iban', ibanProblem],
  ['swiftBic', bicProblem],
  ['sortCode', sortCodeProblem],
  ['ifsc', ifscProblem],
  ['bsbNumber', bsbProblem],
  ['ribNumber', ribProblem],
]

/** Domestic schemes whose account number format and currency are fixed. */
const domestic: Record<
  string,
  { currency: string; account: RegExp; accountRule: string; needs: (keyof BankFields)[] }
> = {
  US: { currency: 'usd', account: /^\d{4,17}$/, accountRule: '4 to 17 digits', needs: ['routingNumber'] },
  GB: { currency: 'gbp', account: /^\d{8}$/, accountRule: '8 digits', needs: ['sortCode'] },
  IN: { currency: 'inr', account: /^\d{9,18}$/, accountRule: '9 to 18 digits', needs: ['ifsc'] },
  AU: { currency: 'aud', account: /^\d{6,10}$/, accountRule: '6 to 10 digits', needs: ['bsbNumber'] },
  NZ: {
    currency: 'nzd',
    account: /^\d{15,16}$/,
    accountRule: '15 or 16 digits (bank, branch, account, suffix)',
    needs: [],
  },
}

const missing = (field: string, why: string): FieldError => ({
  field,
  message: `${field} is required ${why}`,
})

function domesticProblems(d: BankFields, rule: (typeof domestic)[string], why: string): FieldError[] {
  const out: FieldError[] = []
  for (const field of rule.needs) if (!d[field]) out.push(missing(field, why))
  if (!d.accountNumber) out.push(missing('accountNumber', why))
  else if (!rule.account.test(compact(d.accountNumber)))
    out.push({ field: 'accountNumber', message: `account number must be ${rule.accountRule} ${why}` })
  if (d.currency !== rule.currency)
    out.push({
      field: 'currency',
      message: `${why.replace(/^for /, '')} pay out in ${rule.currency.toUpperCase()}`,
    })
  return out
}

/** International (SWIFT) transfers: a BIC, and an IBAN where the bank's country uses IBANs, else an account. */
function swiftProblems(d: BankFields, rails: string): FieldError[] {
  const why = `for ${rails} transfers`
  const out: FieldError[] = []
  if (!d.swiftBic) out.push(missing('swiftBic', why))
  const bankCountry = d.swiftBic ? compact(d.swiftBic).slice(4, 6) : d.country
  if (usesIban(bankCountry)) {
    if (!d.iban) out.push(missing('iban', `${why} to a bank in ${bankCountry}`))
  } else if (!d.iban && !d.accountNumber) out.push(missing('accountNumber', why))
  return out
}

/** Local transfers: the country's domestic scheme, IBAN (or RIB in France), or at least an account number. */
function localProblems(d: BankFields): FieldError[] {
  const rule = domestic[d.country]
  if (rule) return domesticProblems(d, rule, `for local transfers in ${d.country}`)
  if (d.country === 'FR')
    return d.iban || d.ribNumber ? [] : [missing('iban', 'for local transfers in FR (or ribNumber)')]
  if (usesIban(d.country)) return d.iban ? [] : [missing('iban', `for local transfers in ${d.country}`)]
  return d.accountNumber || d.iban ? [] : [missing('accountNumber', `for local transfers in ${d.country}`)]
}

/** Every problem of a set of bank details; empty when they can receive a payout on their rail. */
export function bankDetailProblems(d: BankFields): FieldError[] {
  const out: FieldError[] = []
  for (const [field, check] of identifierChecks) {
    const value = d[field]
    const problem = value ? check(value) : null
    if (problem) out.push({ field, message: problem })
  }
  if (out.length > 0) return out
  if (d.rails === 'swift') return swiftProblems(d, 'SWIFT')
  if (d.rails === 'wire') {
    return d.country === 'US'
      ? domesticProblems(d, domestic.US!, 'for wire transfers in US')
      : swiftProblems(d, 'wire')
  }
  return localProblems(d)
}
