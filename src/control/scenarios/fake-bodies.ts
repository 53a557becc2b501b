// Request bodies made by a scenario's seeded faker: what a real client would send, valid for the API's schemas.
import type { Faker } from '@faker-js/faker'

/** A US individual payer (POST /v2/payer), its e-mail address as clientUserId as easy-invoice sends it. */
export function fakePayerBody(faker: Faker) {
  const firstName = faker.person.firstName()
  const lastName = faker.person.lastName()
  const email = faker.internet.email({ firstName, lastName, provider: 'example.com' }).toLowerCase()
  return {
    clientUserId: email,
    email,
    firstName,
    lastName,
    beneficiaryType: 'individual' as const,
    dateOfBirth: faker.date.birthdate({ mode: 'age', min: 25, max: 70 }).toISOString().slice(0, 10),
    addressLine1: faker.location.streetAddress(),
    city: faker.location.city(),
    state: faker.location.state({ abbreviated: true }),
    postcode: faker.location.zipCode('#####'),
    country: 'US',
    nationality: 'US',
    phone: `+1212555${faker.string.numeric(4)}`,
    ssn: `${faker.string.numeric(3)}-${faker.string.numeric(2)}-${faker.string.numeric(4)}`,
  }
}

/** US bank details on local rails (a routing number that passes the ABA checksum), for the given payer. */
export function fakeBankDetails(
  faker: Faker,
  payer: { firstName: string; lastName: string; dateOfBirth: string },
) {
  return {
    bankName: 'Chase',
    accountName: `${payer.firstName} ${payer.lastName}`,
    accountNumber: faker.string.numeric({ length: 12, allowLeadingZeros: false }),
    routingNumber: '026013356',
    beneficiaryType: 'individual' as const,
    currency: 'usd',
    addressLine1: faker.location.streetAddress(),
    city: faker.location.city(),
    state: faker.location.state({ abbreviated: true }),
    postalCode: faker.location.zipCode('#####'),
    country: 'US',
    dateOfBirth: payer.dateOfBirth,
    rails: 'local' as const,
  }
}
