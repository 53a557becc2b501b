// The seed API handed to a scenario's seed: state is built only through the models the API itself uses
// (createRequest, buildPayment, the faucet), so a seeded world is one the API could have produced.
import { createHash } from 'node:crypto'
import { createWalletClient, getAddress, type Hex, http } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { sandboxChain } from '../../chain/start-chain.ts'
import type { SandboxAccount } from '../../chain/types.ts'
import type { RouteContext, SharedState } from '../../contract/route-context.ts'
import { buildPayment } from '../../resources/pay/model.ts'
import { createRequest, getRequest } from '../../resources/requests/model.ts'
import { CreateRequestBody } from '../../resources/requests/schema.ts'
import { createIdGenerator } from '../../store/ids.ts'
import type { World } from '../../store/world.ts'
import { faucet } from '../faucet.ts'
import type { ScenarioSeedApi } from './define.ts'

/** A 32-bit seed from the sandbox seed, the scenario and the tenant (different keys never share wallets). */
export function scenarioSeed(sandboxSeed: number, scenario: string, tenant: string): number {
  return createHash('sha256')
    .update(`${sandboxSeed}\u0000${scenario}\u0000${tenant}`)
    .digest()
    .readUInt32BE(0)
}

/** Builds the seed API of one world. `seed` is null when the sandbox runs without --seed (random data). */
export async function createSeedApi(
  shared: SharedState,
  world: World,
  seed: number | null,
): Promise<ScenarioSeedApi> {
  // faker is loaded on the first seed only: a sandbox whose keys never pick a scenario does not pay for it.
  const { base, en, Faker } = await import('@faker-js/faker')
  const number = seed ?? Buffer.from(shared.ids.bytes(4)).readUInt32BE(0)
  const faker = new Faker({ locale: [en, base] })
  faker.seed(number)
  const ctxShared: SharedState = seed === null ? shared : { ...shared, ids: createIdGenerator(number) }
  const ctx: RouteContext = { shared: ctxShared, tenant: world.tenant, world }
  let payer: Promise<SandboxAccount> | undefined

  const wallet = (): SandboxAccount => {
    const privateKey = faker.string.hexadecimal({ length: 64, casing: 'lower', prefix: '0x' }) as Hex
    return { address: privateKeyToAccount(privateKey).address, privateKey }
  }
  const fund = async (address: string, currency: string, amount: string): Promise<void> => {
    await faucet(shared, { address: address as Hex, currency, amount })
  }

  return {
    world,
    faker,
    ctx,
    wallet,
    fund,
    payer() {
      payer ??= (async () => {
        const account = wallet()
        for (const [currency, amount] of Object.entries(world.rules.payerBalances ?? {})) {
          await fund(account.address, currency, amount)
        }
        return account
      })()
      return payer
    },
    createRequest: (body) => createRequest(ctx, CreateRequestBody.parse(body)),
    async pay(requestId, from, options = {}) {
      const record = getRequest(ctx, requestId)
      const chain = shared.chains.get(record.network)
      if (!chain) throw new Error(`paying needs a live ${record.network} chain`)
      const payment = await buildPayment(ctx, record, {
        wallet: from.address,
        ...(options.amount ? { amount: options.amount } : {}),
      })
      const client = createWalletClient({
        account: privateKeyToAccount(from.privateKey),
        chain: sandboxChain(chain.network, chain.chainId, chain.rpcUrl, shared.currencies.all),
        transport: http(chain.rpcUrl),
      })
      const hashes: string[] = []
      for (const tx of payment.transactions) {
        const hash = await client.sendTransaction({
          to: getAddress(tx.to),
          data: tx.data as Hex,
          value: BigInt(tx.value.hex),
        })
        const receipt = await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 })
        if (receipt.status !== 'success') throw new Error(`seed transaction ${hash} reverted`)
        hashes.push(hash)
      }
      return hashes
    },
    async waitForPayments(requestId, count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const record = getRequest(ctx, requestId)
        if (record.payments.length >= count) return record
        if (Date.now() > deadline) {
          throw new Error(
            `the chain detector recorded ${record.payments.length} of ${count} payments in ${timeoutMs} ms`,
          )
        }
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    },
  }
}
