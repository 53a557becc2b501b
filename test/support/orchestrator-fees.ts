// Orchestrator fee setup shared by the fee tests: a platform's client ID linked to a fresh orchestrator key with its
// owner's consent, and the orchestrator's fee configs.
import { randomBytes } from 'node:crypto'
import type { Address } from 'viem'
import { expect } from 'vitest'
import { type ApiClient, newApiKey, type Transports } from './clients.ts'

/** `amount` (a decimal with at most 6 places) in the base units of an 18-decimal token. */
export const units = (amount: string) => BigInt(Math.round(Number(amount) * 1e6)) * 10n ** 12n

/** The balance of `owner` in `currency` (native ETH or a token) on the sandbox's sepolia chain. */
export function sepoliaBalance(t: Transports, owner: string, currency: string) {
  const chain = t.sandbox.shared.chains.get('sepolia')!
  const token = t.sandbox.shared.currencies.byId(currency)!
  return chain.balanceOf(token.type === 'ETH' ? 'native' : (token.address as Address), owner as Address)
}

/** The origin the platform's client ID allows. */
export const SHOP_ORIGIN = 'https://shop.example.com'

/** A call made with the orchestrator key `key` and no API key. */
export function asOrchestrator(client: ApiClient, key: string, method: string, path: string, body?: unknown) {
  return client.call(method, path, { apiKey: null, headers: { 'x-orchestrator-key': key }, body })
}

/** Fee configs to create, or a function of the linked client ID giving them. */
export type FeeConfigs = Record<string, unknown>[] | ((clientId: string) => Record<string, unknown>[])

/**
 * A platform client ID (owned by a fresh API key, allowing SHOP_ORIGIN) linked to a fresh orchestrator key
 * `<prefix>_<hex>` with its owner's consent (the owner's API key beside the orchestrator key), then the fee
 * configs `configs` created by that orchestrator (their ids in `configIds`, in order); each step answers 201.
 */
export async function linkFreshPlatform(client: ApiClient, prefix: string, configs: FeeConfigs = []) {
  const orchestrator = `${prefix}_${randomBytes(8).toString('hex')}`
  const owner = newApiKey()
  const created = await client.call('POST', '/v2/client-ids', {
    apiKey: owner,
    body: { label: 'Shop', allowedDomains: [SHOP_ORIGIN] },
  })
  const clientId = created.body.clientId as string
  const linked = await client.call('POST', '/v2/orchestrators/client-ids', {
    apiKey: owner,
    headers: { 'x-orchestrator-key': orchestrator },
    body: { clientId },
  })
  expect(linked.status, linked.text).toBe(201)
  const configIds: string[] = []
  for (const config of typeof configs === 'function' ? configs(clientId) : configs) {
    const res = await asOrchestrator(client, orchestrator, 'POST', '/v2/orchestrators/fee-configs', config)
    expect(res.status, res.text).toBe(201)
    configIds.push(res.body.id)
  }
  return { orchestrator, clientId, owner, configIds }
}
