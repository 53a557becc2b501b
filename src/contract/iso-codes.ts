// ISO reference lists (fixtures/iso3166-1-alpha2.json, fixtures/iso4217.json): read once, never mutated.
import { readFileSync } from 'node:fs'
import { z } from 'zod'

const fixtures = new URL('../../fixtures/', import.meta.url)
const read = (name: string): unknown => JSON.parse(readFileSync(new URL(name, fixtures), 'utf8'))

const countryFile = z.object({ countries: z.record(z.string().regex(/^[A-Z]{2}$/), z.string()) })
const currencyFile = z.object({
  currencies: z.record(z.string().regex(/^[A-Z]{3}$/), z.string()),
  other: z.record(z.string().regex(/^[A-Z]{3}$/), z.string()),
})

const countries: Readonly<Record<string, string>> = Object.freeze(
  countryFile.parse(read('iso3166-1-alpha2.json')).countries,
)
const currencyLists = currencyFile.parse(read('iso4217.json'))
const tender: Readonly<Record<string, string>> = Object.freeze(currencyLists.currencies)
const otherCodes: Readonly<Record<string, string>> = Object.freeze(currencyLists.other)

/** The English name of an ISO 3166-1 alpha-2 country code (any case), or undefined when it is not assigned. */
export function countryName(code: string): string | undefined {
  return Object.hasOwn(countries, code.toUpperCase()) ? countries[code.toUpperCase()] : undefined
}

/** Whether `code` (any case) is an assigned ISO 3166-1 alpha-2 code. */
export function isCountryCode(code: string): boolean {
  return /^[a-zA-Z]{2}$/.test(code) && countryName(code) !== undefined
}

/** Whether `code` (any case) is an ISO 4217 currency a bank account can hold (not a fund, metal or test code). */
export function isCurrencyCode(code: string): boolean {
  return /^[a-zA-Z]{3}$/.test(code) && Object.hasOwn(tender, code.toUpperCase())
}

/** Whether `code` is in ISO 4217 at all (funds, metals and XTS/XXX included). */
export function isIso4217Code(code: string): boolean {
  return isCurrencyCode(code) || (/^[a-zA-Z]{3}$/.test(code) && Object.hasOwn(otherCodes, code.toUpperCase()))
}

/** Number of assigned country codes and of bank currencies (tests check the lists are whole). */
export const isoListSizes = {
  countries: Object.keys(countries).length,
  currencies: Object.keys(tender).length,
}

/** A two-letter country code that exists (ISO 3166-1 alpha-2, any case); parses to upper case. */
export const CountryCode = z
  .string()
  .length(2)
  .refine(isCountryCode, { message: 'must be an ISO 3166-1 alpha-2 country code' })
  .transform((v) => v.toUpperCase())
