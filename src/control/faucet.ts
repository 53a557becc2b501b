// The faucet: tokens are minted to the address (added to what it holds), the native balance is set to the
// amount (so a wallet can also be emptied, for "not enough gas" tests, on a developer's own listener). The chains
// are shared by every tenant: on a shared listener the faucet only adds (a native amount below what the address
// holds is refused: another key may rely on that wallet; a low balance is a fresh wallet's), and on any listener
// the sandbox's own accounts (roles, the keys' test wallets) are not the faucet's to set.
// Tron's coin, TRX, is no currency of the API's list (its tokens are): the faucet takes it as `TRX-tron` (or `TRX`),
// 6 decimals (sun), set as the native balance of the Tron anvil (1 sun = 10^12 wei, what the Tron node reads).
import { getAddress } from 'viem'
import { z } from 'zod'
import { setNativeBalance } from '../chain/index.ts'
import { decimalsOf, fromBaseUnits, toBaseUnits } from '../contract/amounts.ts'
import { AnyAddress } from '../contract/primitives.ts'
import { BadRequestError, SandboxError } from '../contract/sandbox-error.ts'
import type { ResourceServices } from '../resources/services.ts'
import { toEvmAddress, toTronAddress, WEI_PER_SUN } from '../tron/index.ts'

/** Body of POST /__sandbox/faucet. */
export const FaucetBody = z
  .object({
    address: AnyAddress,
    /** a currency id of a live network: `FAU-sepolia`, `USDC-sepolia`, `ETH-sepolia-sepolia`, `USDT-tron`, `TRX-tron` */
    currency: z.string().min(1),
    amount: z
      .string()
      .regex(/^\d{1,30}(\.\d{1,36})?$/, 'amount must be a decimal number written as a string'),
  })
  .strict()
export type FaucetBody = z.infer<typeof FaucetBody>

/** What the faucet did. */
export interface FaucetResult {
  address: string
  currency: string
  network: string
  /** minted (tokens) or set (native), human units */
  amount: string
  /** the address's balance afterwards, human units */
  balance: string
  /** the mint transaction; null for the native balance (set directly on the node) */
  txHash: string | null
}

/** The faucet's id of a network's native coin: `TRX-tron` on Tron, `ETH-<network>-<network>` elsewhere. */
export function nativeFaucetId(network: string): string {
  return network === 'tron' ? TRX.id : `ETH-${network}-${network}`
}

/** TRX as the faucet knows it: the Tron chain's native coin, counted in sun. */
const TRX = { id: 'TRX-tron', type: 'ETH', network: 'tron', decimals: 6 } as const

/** The currency the faucet was asked for: one of the list, or TRX. */
function faucetCurrency(shared: Pick<ResourceServices, 'currencies'>, id: string) {
  if (id === 'TRX' || id === TRX.id) return TRX
  return shared.currencies.byId(id)
}

/**
 * Mints a token or sets the native balance of an address on the currency's live chain. `onlyAdd` (a shared
 * listener): a native amount below the address's balance is refused.
 */
export async function faucet(
  shared: Pick<ResourceServices, 'chains' | 'currencies'>,
  body: FaucetBody,
  options: { onlyAdd?: boolean } = {},
): Promise<FaucetResult> {
  const currency = faucetCurrency(shared, body.currency)
  if (!currency || currency.type === 'ISO4217') {
    throw new BadRequestError(
      `Currency ${body.currency} is not a token of the sandbox's list: use an id such as FAU-sepolia, ETH-sepolia-sepolia, USDT-tron or TRX-tron`,
    )
  }
  const chain = shared.chains.get(currency.network)
  if (!chain) {
    const live = [...shared.chains.keys()].join(', ') || 'none (this sandbox runs without a chain)'
    throw new BadRequestError(
      `${currency.id} is on ${currency.network}, which is not a live network here (live: ${live})`,
    )
  }
  if (currency.network !== 'tron' && body.address.startsWith('T')) {
    throw new BadRequestError(
      `${currency.id} is on ${currency.network}: give an EVM address (0x…), not a Tron one`,
    )
  }
  if (decimalsOf(body.amount) > currency.decimals) {
    throw new BadRequestError(`amount has more decimals than ${currency.id} supports (${currency.decimals})`)
  }
  const amount = toBaseUnits(body.amount, currency.decimals)
  // the native balance in wei: TRX is counted in sun on Tron
  const perUnit = currency.id === TRX.id ? WEI_PER_SUN : 1n
  // a `T…` address is the EVM address behind it (Tron tokens are minted to it); answered back in Tron form
  const address = getAddress(toEvmAddress(body.address))
  // the sandbox's own accounts pay every tenant's gas (settlement, relayed payments, a key's test wallet): a caller
  // may not set (or empty) their coin on a chain all tenants share
  if (currency.type === 'ETH' && chain.isSandboxAccount(address))
    throw new BadRequestError(
      `${body.address} is one of the sandbox's own accounts on ${chain.network}: its ${currency.id} balance is not the faucet's to set`,
    )
  let txHash: string | null = null
  try {
    if (currency.type === 'ETH' && options.onlyAdd) {
      // what is missing is added (anvil_addBalance): a balance that rose meanwhile is never set back down
      const held = await chain.balanceOf('native', address)
      if (amount * perUnit < held)
        throw new BadRequestError(
          `${body.address} holds ${fromBaseUnits(held / perUnit, currency.decimals)} ${currency.id}: on a shared sandbox the faucet only adds (another key may rely on that wallet); for a low balance use a fresh wallet`,
        )
      await chain.fund('native', address, amount * perUnit - held)
    } else if (currency.type === 'ETH') {
      await setNativeBalance(chain, address, amount * perUnit)
    } else {
      const token = chain.tokens[currency.id]
      if (!token) throw new BadRequestError(`${currency.id} is not installed on the ${chain.network} chain`)
      txHash = await chain.fund(token, address, amount)
    }
  } catch (error) {
    if (error instanceof SandboxError) throw error
    throw new SandboxError(503, `Chain unavailable: ${(error as Error).message.split('\n')[0]}`)
  }
  const held = await chain.balanceOf(currency.type === 'ETH' ? 'native' : chain.tokens[currency.id]!, address)
  const balance = currency.type === 'ETH' ? held / perUnit : held
  return {
    address: currency.network === 'tron' ? toTronAddress(address) : address,
    currency: currency.id,
    network: currency.network,
    amount: body.amount,
    balance: fromBaseUnits(balance, currency.decimals),
    txHash,
  }
}
