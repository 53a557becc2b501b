// Wallet login (api-reference/wallet-authentication.mdx): `POST /v1/auth/wallet/challenge` answers a SIWE (EIP-4361)
// message valid 5 minutes; `POST /v1/auth/wallet/verify` checks the wallet's personal_sign signature of it, once,
// and opens an httpOnly `session_token` session with a 15-minute idle timeout. The wallet is an account of the
// portal (its own platform and world, created at its first login), so the cookie routes (`/v1/client-ids`,
// `/v1/webhook`, logout) take it like an email login's: off with the portal (strict mode without --portal), and a
// wallet's first login counts against the per-address signup limit as a registration does.
// Tron wallets (`T…`, told apart by the address form as the page says) sign the same message with TronWeb's
// `trx.signMessageV2` (secp256k1 over keccak256("\x19TRON Signed Message:\n" + length + message)); their account
// is their own, not the EVM address's behind the same key.
// Differences from the real service: a Tron wallet's message says "your Tron account" (the page shows only the
// Ethereum one); the message's domain and URI are the host the sandbox was called at; the verify answer
// (undocumented) is `{address, walletType: "evm" | "tron", platformId, expiresAt}`; challenges and sessions live in the sandbox's memory
// (expired ones swept as new ones open; at most MAX_SESSIONS_PER_PLATFORM live sessions a wallet; challenges.ts bounds
// the challenges waiting per client address and in all).
import { randomBytes } from 'node:crypto'
import { concat, getAddress, isAddress, keccak256, recoverAddress, stringToBytes, verifyMessage } from 'viem'
import type { NeutralRequest } from '../../contract/neutral.ts'
import { publicBaseUrl } from '../../contract/public-url.ts'
import { BadRequestError, UnauthorizedError } from '../../contract/sandbox-error.ts'
import { clientAddress } from '../../contract/security.ts'
import { isTronAddress, toEvmAddress } from '../../tron/index.ts'
import type { Uses } from '../services.ts'
import { admitSignup, requirePortal, sessionCookie } from './accounts.ts'
import type { PlatformAccount } from './credentials.ts'

type Ctx = Uses<'portal' | 'ids' | 'now'>

/** How long a challenge can be signed (the page: 5 minutes). */
export const CHALLENGE_MS = 5 * 60_000
/** A wallet session's idle timeout (the page: 15 minutes). */
export const WALLET_SESSION_IDLE_MS = 15 * 60_000

/** `POST /v1/auth/wallet/challenge`: the SIWE message for `address`. */
export function walletChallenge(ctx: Ctx, request: NeutralRequest, address: string) {
  requirePortal(ctx)
  const tron = isTronAddress(address)
  if (!tron && !isAddress(address, { strict: false }))
    throw new BadRequestError('address must be an EVM (0x…) or Tron (T…) wallet address')
  const wallet = tron ? address : getAddress(address)
  const base = new URL(publicBaseUrl(request))
  const now = ctx.now()
  const expiresAt = new Date(now.getTime() + CHALLENGE_MS)
  const nonce = randomBytes(8).toString('hex')
  const challengeId = ctx.ids.ulid(now.getTime())
  const message = [
    `${base.host} wants you to sign in with your ${tron ? 'Tron' : 'Ethereum'} account:`,
    wallet,
    '',
    'Sign in to Request Network.',
    '',
    `URI: ${base.origin}`,
    'Version: 1',
    `Nonce: ${nonce}`,
    `Issued At: ${now.toISOString()}`,
    `Expiration Time: ${expiresAt.toISOString()}`,
  ].join('\n')
  // 429 when the caller's address has its most challenges waiting (another address's are never dropped for it)
  ctx.portal.walletChallenges.add(
    challengeId,
    { address: wallet, nonce, message, expiresAt: expiresAt.getTime() },
    clientAddress(request),
    now.getTime(),
  )
  return { challengeId, nonce, message, expiresAt: expiresAt.toISOString() }
}

/** The signature TronWeb's `trx.signMessageV2(message)` makes: true when `tronAddress`'s key signed `message`. */
export async function verifyTronMessage(tronAddress: string, message: string, signature: string) {
  if (!/^(0x)?[0-9a-fA-F]{130}$/.test(signature)) return false
  const bytes = stringToBytes(message)
  const hash = keccak256(
    concat([stringToBytes('\x19TRON Signed Message:\n'), stringToBytes(String(bytes.length)), bytes]),
  )
  const signer = await recoverAddress({
    hash,
    signature: `0x${signature.replace(/^0x/, '')}`,
  }).catch(() => null)
  return signer !== null && signer.toLowerCase() === toEvmAddress(tronAddress)
}

/** The wallet's portal account, created at its first login (a `T…` address keeps its case: base58 is case-sensitive). */
function walletPlatform(ctx: Ctx, request: NeutralRequest, wallet: string): PlatformAccount {
  const key = `wallet:${isTronAddress(wallet) ? wallet : wallet.toLowerCase()}`
  const known = ctx.portal.platformsByEmail.get(key)
  if (known) return known
  // a new account, as a registration: counted against the caller's per-address signup limit (429)
  admitSignup(ctx, request)
  const now = ctx.now()
  const platform: PlatformAccount = {
    id: ctx.ids.ulid(now.getTime()),
    email: key,
    passwordSalt: '',
    passwordHash: '',
    tenant: `wallet_${wallet.toLowerCase()}`,
    createdAt: now.toISOString(),
  }
  ctx.portal.platformsByEmail.set(key, platform)
  ctx.portal.platformsById.set(platform.id, platform)
  ctx.portal.refuse(platform.tenant)
  return platform
}

/** `POST /v1/auth/wallet/verify`: a signed, unexpired, unused challenge opens a session (401 otherwise). */
export async function walletVerify(
  ctx: Ctx,
  request: NeutralRequest,
  body: { challengeId: string; nonce: string; message: string; signature: string },
) {
  requirePortal(ctx)
  const challenge = ctx.portal.walletChallenges.get(body.challengeId)
  const now = ctx.now().getTime()
  if (!challenge || challenge.nonce !== body.nonce || challenge.message !== body.message)
    throw new UnauthorizedError('Invalid or unknown challenge')
  // single use, whatever the outcome
  ctx.portal.walletChallenges.delete(body.challengeId)
  if (now >= challenge.expiresAt) throw new UnauthorizedError('Challenge expired')
  const tron = isTronAddress(challenge.address)
  const valid = tron
    ? await verifyTronMessage(challenge.address, challenge.message, body.signature)
    : await verifyMessage({
        address: challenge.address as `0x${string}`,
        message: challenge.message,
        signature: body.signature as `0x${string}`,
      }).catch(() => false)
  if (!valid) throw new UnauthorizedError('Invalid signature')
  const platform = walletPlatform(ctx, request, challenge.address)
  const token = randomBytes(32).toString('hex')
  ctx.portal.openSession(
    token,
    { platformId: platform.id, expiresAt: now + WALLET_SESSION_IDLE_MS, idleMs: WALLET_SESSION_IDLE_MS },
    now,
  )
  return {
    cookie: sessionCookie(token, request, WALLET_SESSION_IDLE_MS / 1000),
    body: {
      address: challenge.address,
      walletType: tron ? ('tron' as const) : ('evm' as const),
      platformId: platform.id,
      expiresAt: new Date(now + WALLET_SESSION_IDLE_MS).toISOString(),
    },
  }
}
