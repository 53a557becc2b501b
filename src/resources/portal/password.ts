// Portal passwords: scrypt (node:crypto) with a random 16-byte salt per account, compared in constant time.
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto'

const KEY_LENGTH = 32

function derive(password: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, (error, key) =>
      error ? reject(error) : resolve(key),
    )
  })
}

/** A fresh salt and the scrypt hash of the password under it, both hex. */
export async function hashPassword(password: string): Promise<{ salt: string; hash: string }> {
  const salt = randomBytes(16)
  return { salt: salt.toString('hex'), hash: (await derive(password, salt)).toString('hex') }
}

/** True when the password hashes to the stored hash (constant-time comparison). */
export async function verifyPassword(password: string, salt: string, hash: string): Promise<boolean> {
  const expected = Buffer.from(hash, 'hex')
  const actual = await derive(password, Buffer.from(salt, 'hex'))
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

/** A salt and hash to compare against when the email is unknown, so both failures take as long. */
export const DUMMY_CREDENTIALS = { salt: '00'.repeat(16), hash: '00'.repeat(KEY_LENGTH) }
