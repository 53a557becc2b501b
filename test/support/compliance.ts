// Request bodies for the payer and payment-details endpoints: the service's documented examples.
import type { ApiClient } from './clients.ts'
import type { Loose } from './loose.ts'

/** The V2 document's individual payer, with an e-mail address as clientUserId (as easy-invoice sends). */
export function payerBody(overrides: Record<string, unknown> = {}) {
  return {
    clientUserId: 'john.doe@example.com',
    email: 'john.doe@example.com',
    firstName: 'John',
    lastName: 'Doe',
    beneficiaryType: 'individual',
    dateOfBirth: '1985-12-12',
    addressLine1: '123 Main Street',
    city: 'New York',
    state: 'NY',
    postcode: '10001',
    country: 'US',
    nationality: 'US',
    phone: '+12125551234',
    ssn: '123-45-6789',
    ...overrides,
  }
}

/** The documents' US business bank account (Chase, local rails). */
export const usBankDetails = {
  bankName: 'Chase',
  accountName: "Gordon's Chase Business Account",
  accountNumber: '253009233489',
  routingNumber: '026013356',
  beneficiaryType: 'business',
  currency: 'usd',
  addressLine1: '24 Theatre St.',
  city: 'Paramount',
  state: 'CA',
  postalCode: '90723',
  country: 'US',
  dateOfBirth: '1985-12-12',
  rails: 'local',
}

/** The V2 document's SWIFT example (Deutsche Bank IBAN). */
export const swiftBankDetails = {
  bankName: 'Deutsche Bank',
  accountName: 'John Doe',
  beneficiaryType: 'individual',
  currency: 'eur',
  addressLine1: 'Unter den Linden 1',
  city: 'Berlin',
  postalCode: '10117',
  country: 'DE',
  dateOfBirth: '1990-03-22',
  rails: 'swift',
  iban: 'DE89370400440532013000',
  swiftBic: 'DEUTDEFF',
}

/** The V2 document's UK example (sort code). */
export const ukBankDetails = {
  bankName: 'Barclays',
  accountName: 'Jane Smith',
  accountNumber: '12345678',
  beneficiaryType: 'individual',
  currency: 'gbp',
  addressLine1: '123 High Street',
  city: 'London',
  postalCode: 'SW1A 1AA',
  country: 'GB',
  dateOfBirth: '1988-07-10',
  rails: 'local',
  sortCode: '200000',
}

/** Creates a payer and returns the create response body. */
export async function createPayer(
  client: ApiClient,
  apiKey: string,
  overrides: Record<string, unknown> = {},
) {
  const res = await client.call('POST', '/v2/payer', { apiKey, body: payerBody(overrides) })
  if (res.status !== 200) throw new Error(`payer creation failed: ${res.status} ${res.text}`)
  return res.body as { agreementUrl: string; kycUrl: string; userId: string }
}

/** POSTs JSON to an absolute URL (a page link) through whichever transport serves it. */
export async function postJson(url: string, body: unknown) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json()) as Loose }
}
