// `/v1/payee-destination` (the Auth API, api-features/payee-destinations.mdx): the signed-in wallet (a SIWE
// session, `session_token` cookie) manages its own destination without further signatures: create or reactivate,
// read, change token or chain, look one up, deactivate; and a payout initiator finds where a recipient wants to be
// paid (`payout-lookup`, an EVM or a Tron wallet). A Tron wallet's session names a TRC-20 token (`T…`) on chain
// 728126428 (see model.ts). The destination lives in the wallet account's world, as its client IDs do, so a client ID
// bound to it (`payeeDestinationId`) resolves the payee of the requests it creates.
// Differences from the real service: `binaryInteropAddress` is the sandbox's (0x + the ERC-7930 bytes it derives
// the checksum from are not published: the hex of the human-readable form); `claimed` is always true; `accessPolicy`
// is stored and answered (its rules: `screeningProvider` required with `kyt_all_wallets`, refused with `off`).
import { z } from 'zod'
import { BadRequestError, ForbiddenError } from '../../contract/sandbox-error.ts'
import type { Uses } from '../services.ts'
import { activateDestination, activeDestinationOf, findDestination } from './model.ts'
import type { PayeeDestinationRecord } from './schema.ts'
import { payeeDestinationState } from './tables.ts'

type Ctx = Uses<'currencies' | 'ids' | 'portal'>

/** A destination's KYT policy as the page documents it, with its two rules. */
export const DestinationAccessPolicy = z
  .object({
    mode: z.enum(['off', 'kyt_all_wallets']).optional(),
    screeningProvider: z.enum(['hypernative', 'merklescience']).nullable().optional(),
    hideUntilApproved: z.boolean().optional(),
    hidePayeeAddress: z.boolean().optional(),
  })
  .superRefine((p, ctx) => {
    if (p.mode === 'kyt_all_wallets' && !p.screeningProvider)
      ctx.addIssue({
        code: 'custom',
        path: ['screeningProvider'],
        message: 'screeningProvider is required when mode is kyt_all_wallets',
      })
    if ((p.mode ?? 'off') === 'off' && p.screeningProvider)
      ctx.addIssue({
        code: 'custom',
        path: ['screeningProvider'],
        message: 'screeningProvider must be omitted or null when mode is off',
      })
  })

/** Body of `POST` and `PUT /v1/payee-destination`. */
export const SessionDestinationBody = z.object({
  tokenAddress: z
    .string()
    .regex(
      /^(0x[0-9a-fA-F]{40}|T[1-9A-HJ-NP-Za-km-z]{33})$/,
      'tokenAddress must be a token address (EVM 0x… or Tron T…)',
    ),
  chainId: z.number().int().positive(),
  accessPolicy: DestinationAccessPolicy.optional(),
})
export type SessionDestinationBody = z.infer<typeof SessionDestinationBody>

/** The wallet of the session's account; 403 for an email login (destinations belong to wallets). */
export function sessionWallet(ctx: Ctx): string {
  const platform = ctx.portal.platformsById.get(ctx.caller?.platformId ?? '')
  const wallet = platform?.email.startsWith('wallet:') ? platform.email.slice('wallet:'.length) : undefined
  if (!wallet)
    throw new ForbiddenError('Payee destinations need a wallet session (POST /v1/auth/wallet/verify)')
  return wallet
}

/** The page's answer for a destination. */
export function sessionBody(record: PayeeDestinationRecord) {
  const human = record.destinationId.slice(0, record.destinationId.lastIndexOf(':'))
  return {
    id: record.id,
    destinationId: record.destinationId,
    walletAddress: record.walletAddress,
    tokenAddress: record.tokenAddress,
    chainId: record.chainId,
    accessPolicy: record.accessPolicy ?? null,
    binaryInteropAddress: `0x${Buffer.from(human).toString('hex')}`,
    humanReadableInteropAddress: human,
    claimed: true,
    active: record.active,
    createdAt: record.createdAt,
  }
}

/** `POST /v1/payee-destination`: the wallet's destination for this token and chain, made active. */
export async function createSessionDestination(ctx: Ctx, body: SessionDestinationBody) {
  const record = await activateDestination(ctx, sessionWallet(ctx), body.chainId, body.tokenAddress, null)
  if (body.accessPolicy === undefined) return record
  return (await payeeDestinationState(ctx.world).payeeDestinations.update(record.id, (d) => {
    d.accessPolicy = body.accessPolicy ?? null
  }))!
}

/** `PUT /v1/payee-destination`: the active destination moved to another token and/or chain (400 without one). */
export async function updateSessionDestination(ctx: Ctx, body: SessionDestinationBody) {
  const current = activeDestinationOf(ctx.world, sessionWallet(ctx))
  if (!current) throw new BadRequestError('No active payee destination to update')
  const record = await activateDestination(ctx, sessionWallet(ctx), body.chainId, body.tokenAddress, null)
  const policy = body.accessPolicy === undefined ? (current.accessPolicy ?? null) : body.accessPolicy
  return (await payeeDestinationState(ctx.world).payeeDestinations.update(record.id, (d) => {
    d.accessPolicy = policy
  }))!
}

/** `PATCH /v1/payee-destination/deactivate`: the session wallet's destination, deactivated. */
export async function deactivateSessionDestination(ctx: Ctx, destinationId: string) {
  const record = findDestination(ctx.world, destinationId)
  if (!record?.active || record.walletAddress.toLowerCase() !== sessionWallet(ctx).toLowerCase())
    throw new BadRequestError('Destination not found')
  await payeeDestinationState(ctx.world).payeeDestinations.update(record.id, (d) => {
    d.active = false
    d.updatedAt = ctx.world.clock.now().toISOString()
  })
  return { success: true, message: 'Destination deactivated' }
}

/** `GET /v1/payee-destination/payout-lookup`: where a recipient wallet wants to be paid (its own account's destination). */
export function payoutLookup(ctx: Ctx & Uses<'worlds'>, walletAddress: string) {
  // a destination is its wallet account's (wallet.ts names that account's tenant): other accounts' worlds never answer
  const own = `wallet_${walletAddress.toLowerCase()}`
  for (const world of ctx.worlds.all()) {
    if (world.tenant !== own) continue
    const found = activeDestinationOf(world, walletAddress)
    if (found)
      return {
        destinationId: found.destinationId,
        walletAddress: found.walletAddress,
        tokenAddress: found.tokenAddress,
        chainId: found.chainId,
        claimed: true,
      }
  }
  return null
}
