// Payee destinations: a wallet says, with an EIP-712 signature, which token on which chain it wants to be paid in.
// Differences from the real service: the typed data is the sandbox's own (the documents do not publish it); a
// nonce lives 10 minutes on the tenant's clock; a wallet has one active destination (adding another deactivates
// the previous one); tokens must be in the sandbox's token list. Destinations belong to the tenant's world.
// Tron (api-features/payee-destinations.mdx: "EVM and Tron destinations use the same endpoint and shape — only the
// address format and chain ID differ"): a Tron wallet signed in with its session (`/v1/payee-destination`) names a
// TRC-20 token by its `T…` address on chain 728126428; the record keeps both in `T…` form and its composite id is
// `T…wallet@eip155:728126428#checksum:T…token` (the page's one shape; the checksum is over the 20 bytes behind the
// wallet). The EIP-712 flow (`/v2/payee-destination`) stays EVM: a Tron wallet cannot sign EIP-712 typed data.
import { getAddress, verifyTypedData } from 'viem'
import type { ClientIdGrant } from '../../contract/caller.ts'
import type { World } from '../../contract/world.ts'
import { isTronAddress, TRON_NETWORK, toEvmAddress } from '../../tron/index.ts'
import { clientIdState } from '../client-ids/index.ts'
import type { Uses } from '../services.ts'
import {
  DestinationNotFoundForDeactivationError,
  PayeeDestinationNotFoundError,
  PayeeSignatureError,
  PayeeTokenError,
} from './errors.ts'
import type { PayeeDestinationRecord, SignedBody, SigningDataQuery, SigningNonce } from './schema.ts'
import { payeeDestinationState } from './tables.ts'
import { compositeDestinationId, interopChecksum, payeeDestinationTypedData } from './typed-data.ts'

type Ctx = Uses<'currencies' | 'ids'>

const NONCE_LIFETIME_MS = 10 * 60 * 1000

/** Where a destination sends money: what a request or a secure payment needs from it. */
export interface ResolvedDestination {
  id: string
  destinationId: string
  payee: `0x${string}`
  tokenAddress: `0x${string}`
  chainId: number
  network: string
  /** the token's id in the token list */
  currency: string
  /** the destination's KYT policy (the default of the links that pay it) */
  accessPolicy: PayeeDestinationRecord['accessPolicy'] | null
}

/** The Tron chain id (728126428). */
const TRON_CHAIN_ID = 728126428

/** The token of the list at `tokenAddress` on `chainId`: an ERC-20, or (with `tron`) a TRC-20 named in `T…` form. */
function tokenOn(ctx: Ctx, chainId: number, tokenAddress: string, tron = false) {
  if (chainId === TRON_CHAIN_ID && !tron)
    throw new PayeeTokenError(
      'Tron destinations are created by a signed-in Tron wallet: POST /v1/payee-destination with a wallet session',
    )
  const token = ctx.currencies.all.find((c) =>
    c.type === 'TRC20'
      ? c.chainId === chainId && c.address === tokenAddress
      : c.chainId === chainId && c.type === 'ERC20' && c.address.toLowerCase() === tokenAddress.toLowerCase(),
  )
  if (!token) {
    const kind = chainId === TRON_CHAIN_ID ? 'TRC20 token (T…)' : 'ERC20 token'
    throw new PayeeTokenError(`Token ${tokenAddress} is not a supported ${kind} on chain ${chainId}`)
  }
  return token
}

/** Issues a single-use nonce and the EIP-712 data the wallet signs with it. */
export function issueSigningData(ctx: Ctx, query: SigningDataQuery) {
  const chainId = Number(query.chainId)
  const token = tokenOn(ctx, chainId, query.tokenAddress)
  const now = ctx.world.clock.now().getTime()
  const nonce: SigningNonce = {
    nonce: ctx.ids.hex(16),
    action: query.action,
    walletAddress: getAddress(query.walletAddress),
    tokenAddress: getAddress(token.address),
    chainId,
    expiresAt: new Date(now + NONCE_LIFETIME_MS).toISOString(),
    usedAt: null,
  }
  payeeDestinationState(ctx.world).payeeSigningNonces.set(nonce.nonce, nonce)
  return { nonce: nonce.nonce, expiresAt: nonce.expiresAt, ...payeeDestinationTypedData(nonce) }
}

/**
 * Checks a signed nonce: it must have been issued to this tenant for `action`, be unused and unexpired, and the
 * signature must recover its wallet. Marks it used (a second use is refused, even while the first is checked).
 */
async function consumeNonce(ctx: Ctx, body: SignedBody, action: SigningNonce['action']) {
  const { world } = ctx
  const nonce = payeeDestinationState(world).payeeSigningNonces.get(body.nonce)
  if (!nonce)
    throw new PayeeSignatureError('Invalid nonce: request one from /v2/payee-destination/signing-data')
  if (nonce.usedAt) throw new PayeeSignatureError('Nonce has already been used')
  if (Date.parse(nonce.expiresAt) <= world.clock.now().getTime())
    throw new PayeeSignatureError('Nonce has expired')
  if (nonce.action !== action) {
    throw new PayeeSignatureError(`Nonce was issued for action ${nonce.action}, not ${action}`)
  }
  nonce.usedAt = world.clock.now().toISOString()
  let valid = false
  try {
    valid = await verifyTypedData({
      address: nonce.walletAddress,
      signature: body.signature as `0x${string}`,
      ...payeeDestinationTypedData(nonce),
    })
  } catch {}
  if (!valid) {
    nonce.usedAt = null // a failed attempt does not burn the nonce
    throw new PayeeSignatureError(
      `Invalid signature: the typed data was not signed by ${nonce.walletAddress}`,
    )
  }
  return nonce
}

/** The record as the endpoints answer it. */
export function destinationBody(record: PayeeDestinationRecord) {
  const { clientId: _clientId, ...body } = record
  return body
}

/** `POST /v2/payee-destination`: verifies the signature and makes the destination the wallet's active one. */
export async function createDestination(ctx: Ctx, body: SignedBody): Promise<PayeeDestinationRecord> {
  const nonce = await consumeNonce(ctx, body, 'add')
  const clientId = ctx.caller?.via === 'client-id' ? (ctx.caller.clientId?.clientId ?? null) : null
  return activateDestination(ctx, nonce.walletAddress, nonce.chainId, nonce.tokenAddress, clientId)
}

/**
 * Makes `currency` on its chain the active destination of `walletAddress` in the context's world, bound to
 * `clientId`, without a signature: what an orchestrator's hosted onboarding does once the platform confirmed.
 */
export async function registerDestination(
  ctx: Ctx,
  input: { walletAddress: string; currency: string; clientId: string | null },
): Promise<PayeeDestinationRecord> {
  const currency = ctx.currencies.byId(input.currency)
  if (currency?.type !== 'ERC20' || !currency.address)
    throw new PayeeTokenError(`Token ${input.currency} is not a supported ERC20 token`)
  return activateDestination(ctx, input.walletAddress, currency.chainId, currency.address, input.clientId)
}

/** Makes `wallet`'s destination for this token and chain its one active destination (created when new). */
export async function activateDestination(
  ctx: Ctx,
  wallet: string,
  chainId: number,
  tokenContract: string,
  clientId: string | null,
): Promise<PayeeDestinationRecord> {
  const { world } = ctx
  const tronWallet = isTronAddress(wallet)
  const token = tokenOn(ctx, chainId, tokenContract, true)
  const onTron = token.network === TRON_NETWORK
  // Tron and EVM wallets are not interchangeable: each is paid on its own kind of chain
  if (onTron !== tronWallet)
    throw new PayeeTokenError(
      onTron
        ? `A Tron destination needs a Tron wallet (T…): sign in with one to be paid on chain ${chainId}`
        : `A Tron wallet is paid on Tron only: chain ${chainId} needs an EVM wallet`,
    )
  const walletAddress = onTron ? wallet : getAddress(wallet)
  const tokenAddress = onTron ? token.address : getAddress(token.address)
  const id = `${token.network}:${walletAddress}:${tokenAddress}`
  const now = world.clock.now().toISOString()
  for (const other of payeeDestinationState(world).payeeDestinations.all()) {
    if (other.active && other.id !== id && other.walletAddress === walletAddress) {
      await payeeDestinationState(world).payeeDestinations.update(other.id, (d) => {
        d.active = false
        d.updatedAt = now
      })
    }
  }
  const existing = payeeDestinationState(world).payeeDestinations.get(id)
  if (existing) {
    return (await payeeDestinationState(world).payeeDestinations.update(id, (d) => {
      d.active = true
      d.clientId = clientId
      d.updatedAt = now
    }))!
  }
  return payeeDestinationState(world).payeeDestinations.insert({
    id,
    destinationId: onTron
      ? `${walletAddress}@eip155:${token.chainId}#${interopChecksum(toEvmAddress(walletAddress), token.chainId)}:${tokenAddress}`
      : compositeDestinationId(walletAddress as `0x${string}`, token.chainId, tokenAddress as `0x${string}`),
    walletAddress,
    tokenAddress,
    chainId: token.chainId,
    network: token.network,
    currency: token.id,
    active: true,
    clientId,
    createdAt: now,
    updatedAt: now,
  })
}

/** `DELETE /v2/payee-destination/{destinationId}`: a signed deactivation (the record stays, inactive). */
export async function deactivateDestination(
  ctx: Ctx,
  destinationId: string,
  body: SignedBody,
): Promise<PayeeDestinationRecord> {
  const record = findDestination(ctx.world, destinationId)
  if (!record?.active) throw new DestinationNotFoundForDeactivationError()
  const nonce = payeeDestinationState(ctx.world).payeeSigningNonces.get(body.nonce)
  if (
    nonce &&
    (nonce.walletAddress !== record.walletAddress ||
      nonce.tokenAddress !== record.tokenAddress ||
      nonce.chainId !== record.chainId)
  ) {
    throw new PayeeSignatureError('Nonce was issued for another destination')
  }
  await consumeNonce(ctx, body, 'deactivate')
  return (await payeeDestinationState(ctx.world).payeeDestinations.update(record.id, (d) => {
    d.active = false
    d.updatedAt = ctx.world.clock.now().toISOString()
  }))!
}

/** The wallet's active destination, or null. */
export function activeDestinationOf(world: World, walletAddress: string): PayeeDestinationRecord | null {
  const wallet = walletAddress.toLowerCase()
  return (
    payeeDestinationState(world)
      .payeeDestinations.all()
      .find((d) => d.active && d.walletAddress.toLowerCase() === wallet) ?? null
  )
}

/**
 * A destination by id: `network:walletAddress:tokenAddress` (any address casing; `tron:T…:T…` as stored) or the
 * composite ERC-7828 form `wallet@eip155:chainId#checksum:token` (the checksum must match; `T…` forms on Tron).
 */
export function findDestination(world: World, destinationId: string): PayeeDestinationRecord | undefined {
  const tron = /^tron:(T\w{33}):(T\w{33})$/.exec(destinationId)
  if (tron) return payeeDestinationState(world).payeeDestinations.get(destinationId)
  const tronComposite = /^(T\w{33})@eip155:(\d+)#([0-9a-fA-F]{8}):(T\w{33})$/.exec(destinationId)
  if (tronComposite) {
    if (!isTronAddress(tronComposite[1]!)) return undefined
    const checksum = interopChecksum(toEvmAddress(tronComposite[1]!), Number(tronComposite[2]))
    if (tronComposite[3]!.toUpperCase() !== checksum) return undefined
    const wanted = destinationId.replace(/#[0-9a-fA-F]{8}:/, `#${checksum}:`)
    return payeeDestinationState(world)
      .payeeDestinations.all()
      .find((d) => d.destinationId === wanted)
  }
  const plain = /^([a-z0-9-]+):(0x[0-9a-fA-F]{40}):(0x[0-9a-fA-F]{40})$/.exec(destinationId)
  if (plain)
    return payeeDestinationState(world).payeeDestinations.get(
      `${plain[1]}:${getAddress(plain[2]!)}:${getAddress(plain[3]!)}`,
    )
  const composite = /^(0x[0-9a-fA-F]{40})@eip155:(\d+)#([0-9a-fA-F]{8}):(0x[0-9a-fA-F]{40})$/.exec(
    destinationId,
  )
  if (!composite) return undefined
  const wallet = getAddress(composite[1]!)
  const chainId = Number(composite[2])
  if (composite[3]!.toUpperCase() !== interopChecksum(wallet, chainId)) return undefined
  const wanted = compositeDestinationId(wallet, chainId, getAddress(composite[4]!))
  return payeeDestinationState(world)
    .payeeDestinations.all()
    .find((d) => d.destinationId === wanted)
}

/** `GET /v2/payee-destination/{destinationId}`, or 404. */
export function getDestination(ctx: Ctx, destinationId: string): PayeeDestinationRecord {
  const record = findDestination(ctx.world, destinationId)
  if (!record) throw new PayeeDestinationNotFoundError()
  return record
}

/** What secure payments (and anything else paying a destination) need: payee, token, chain; undefined when unknown or inactive. */
export function resolveDestination(world: World, destinationId: string): ResolvedDestination | undefined {
  const record = findDestination(world, destinationId)
  if (!record?.active) return undefined
  return {
    id: record.id,
    destinationId: record.destinationId,
    payee: record.walletAddress as `0x${string}`,
    tokenAddress: record.tokenAddress as `0x${string}`,
    chainId: record.chainId,
    network: record.network,
    currency: record.currency,
    accessPolicy: record.accessPolicy ?? null,
  }
}

/**
 * The destination a client-ID call stands for when it names no payee (DOCS: a client ID bound to a destination
 * may omit `payee`): the latest active destination registered through this client ID, else the active one of
 * its operator wallet, else the tenant's latest active destination.
 */
export function destinationForClientId(world: World, grant: ClientIdGrant): ResolvedDestination | undefined {
  const active = payeeDestinationState(world)
    .payeeDestinations.all()
    .filter((d) => d.active)
  const record = clientIdState(world).clientIds.get(grant.id)
  // a client ID bound to a destination (its payeeDestinationId, api-features/client-id-management.mdx) pays it
  if (record?.payeeDestinationId) return resolveDestination(world, record.payeeDestinationId)
  const operator = record?.operatorWalletAddress?.toLowerCase()
  const chosen =
    active.findLast((d) => d.clientId === grant.clientId) ??
    (operator ? active.find((d) => d.walletAddress.toLowerCase() === operator) : undefined) ??
    active.at(-1)
  return chosen ? resolveDestination(world, chosen.id) : undefined
}
