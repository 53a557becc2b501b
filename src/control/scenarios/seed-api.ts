// The seed API handed to a scenario's seed: state is built only through the models the API itself uses
// (createRequest, buildPayment, the faucet), so a seeded world is one the API could have produced.
import { createHash, randomBytes } from 'node:crypto'
import type { Faker } from '@faker-js/faker'
import { type Hex, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { type SandboxAccount, sendApiTransactions } from '../../chain/index.ts'
import { waitFor } from '../../contract/wait.ts'
import type { World } from '../../contract/world.ts'
import { buildPayment } from '../../resources/pay/index.ts'
import {
  applyKycAction,
  CreatePayerBody,
  complianceView,
  createPayer,
  forceCompliance,
  getPayer,
  markAgreementCompleted,
} from '../../resources/payers/index.ts'
import {
  CreatePaymentDetailBody,
  createPaymentDetail,
  forcePaymentDetailStatus,
} from '../../resources/payment-details/index.ts'
import {
  activatePayout,
  createOneTimePayout,
  createRecurringPayout,
  getPayout,
  PayoutBody,
  updatePayout,
} from '../../resources/payouts/index.ts'
import { CreateRequestBody, createRequestAndSchedule, getRequest } from '../../resources/requests/index.ts'
import { inWorld, type ResourceServices } from '../../resources/services.ts'
import { createIdGenerator } from '../../store/ids.ts'
import type { Tenants } from '../../store/tenants.ts'
import { faucet } from '../faucet.ts'
import { builtinWorldFile } from '../fixtures/builtin.ts'
import { loadWorldFile } from '../fixtures/load.ts'
import { parseWorldFile } from '../fixtures/world-file.ts'
import type { ScenarioSeedApi, ServiceTx } from './define.ts'
import { fakeBankDetails, fakePayerBody } from './fake-bodies.ts'

/** A 32-bit seed from the sandbox seed, the scenario and the tenant (different keys never share wallets). */
export function scenarioSeed(sandboxSeed: number, scenario: string, tenant: string): number {
  return createHash('sha256')
    .update(`${sandboxSeed}\u0000${scenario}\u0000${tenant}`)
    .digest()
    .readUInt32BE(0)
}

/** What seeding reads: the resources' services and the tenants whose worlds it seeds. */
export type SeedServices = ResourceServices & { tenants: Tenants }

/** Builds the seed API of one world. `seed` is null when the sandbox runs without --seed (random data). */
export async function createSeedApi(
  shared: SeedServices,
  world: World,
  seed: number | null,
  baseUrl = 'http://localhost',
): Promise<ScenarioSeedApi> {
  // faker is loaded on the first seed only (a sandbox whose keys never pick a scenario does not pay for it), and
  // only its English locale (the package's index loads every locale: 0.3 s). A fresh instance per seed API, with
  // the locale's definitions (en over base): the same data as `new Faker({ locale: [en, base] })`.
  const { faker: english } = await import('@faker-js/faker/locale/en')
  const number = seed ?? Buffer.from(shared.ids.bytes(4)).readUInt32BE(0)
  const FakerClass = english.constructor as typeof Faker
  const faker = new FakerClass({ locale: english.rawDefinitions })
  faker.seed(number)
  const services: SeedServices = seed === null ? shared : { ...shared, ids: createIdGenerator(number) }
  const ctx = inWorld(services, world)
  let payer: Promise<SandboxAccount> | undefined

  // a wallet the sandbox funds and pays from: its key from the CSPRNG (nobody can sign as it through /rpc), or
  // from the seeded faker when `--seed` asks for the same data run after run
  const wallet = (): SandboxAccount => {
    const privateKey =
      seed === null
        ? toHex(randomBytes(32))
        : (faker.string.hexadecimal({ length: 64, casing: 'lower', prefix: '0x' }) as Hex)
    return { address: privateKeyToAccount(privateKey).address, privateKey }
  }
  const send = async (
    from: SandboxAccount,
    transactions: ServiceTx[],
    network?: string,
  ): Promise<string[]> => {
    const chain = network ? shared.chains.get(network) : shared.chain
    if (!chain) throw new Error(`sending transactions needs a live ${network ?? ''} chain`)
    const receipts = await sendApiTransactions(chain, from.privateKey, transactions)
    return receipts.map((receipt) => receipt.transactionHash)
  }
  const fund = async (address: string, currency: string, amount: string): Promise<void> => {
    await faucet(shared, { address: address as Hex, currency, amount })
  }

  const api: ScenarioSeedApi = {
    faker,
    clock: { now: () => world.clock.now() },
    baseUrl,
    wallet,
    fund,
    payerBody: () => fakePayerBody(faker),
    bankDetails: (payer) => fakeBankDetails(faker, payer),
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
    // as POST /v2/request creates it: a request with recurrence starts producing its children
    createRequest: async (body) => createRequestAndSchedule(ctx, CreateRequestBody.parse(body)),
    send,
    signTypedData: (from, typedData) =>
      privateKeyToAccount(from.privateKey).signTypedData(typedData as never),
    models: {
      payers: {
        create: (body) => createPayer(ctx, CreatePayerBody.parse(body), baseUrl),
        completeAgreement: (id) => markAgreementCompleted(ctx, id, 'agreement_patch'),
        kyc: (id, action) => applyKycAction(ctx, id, action),
        force: (id, next) => forceCompliance(ctx, id, next),
        get: (id) => getPayer(ctx, id),
        view: (id) => complianceView(getPayer(ctx, id)),
      },
      paymentDetails: {
        create: (id, body) => createPaymentDetail(ctx, id, CreatePaymentDetailBody.parse(body)),
        force: (clientUserId, id, status) => forcePaymentDetailStatus(ctx, clientUserId, id, status),
      },
      payouts: {
        createRecurring(body) {
          const parsed = PayoutBody.parse(body)
          if (!parsed.recurrence) throw new Error('createRecurring needs a recurrence')
          return createRecurringPayout(ctx, parsed)
        },
        createOneTime: (body) =>
          createOneTimePayout(ctx, PayoutBody.parse({ ...body, recurrence: undefined })),
        activate: (id, signature) => activatePayout(ctx, id, signature),
        update: (id, action) => updatePayout(ctx, id, action),
        get: (id) => getPayout(ctx, id),
      },
    },
    async startRecurringPayout(payer, body) {
      const parsed = PayoutBody.parse(body)
      if (!parsed.recurrence) throw new Error('startRecurringPayout needs a recurrence')
      const created = await createRecurringPayout(ctx, parsed)
      await send(payer, created.transactions)
      const permit = created.recurringPaymentPermit
      const signature = await privateKeyToAccount(payer.privateKey).signTypedData({
        ...permit,
        primaryType: 'SchedulePermit',
        message: permit.values,
      } as never)
      await activatePayout(ctx, created.id, signature)
      return created
    },
    waitFor: (check, what, timeoutMs = 15_000) => waitFor(check, { what, timeoutMs, intervalMs: 50 }),
    async pay(requestId, from, options = {}) {
      const record = getRequest(ctx, requestId)
      const payment = await buildPayment(ctx, record, {
        wallet: from.address,
        ...(options.amount ? { amount: options.amount } : {}),
      })
      // no chain/token in the options: always the same-chain answer
      if (!('transactions' in payment))
        throw new Error(`scenario seed got a cross-chain answer for ${requestId}`)
      return send(from, payment.transactions, record.network)
    },
    async worldFile(source) {
      const text = /^[a-z][a-z0-9-]*$/.test(source) ? await builtinWorldFile(source) : source
      // the sandbox's own files and the operator's scenarios: parsed on this thread
      return { ...(await loadWorldFile(api, shared, world, await parseWorldFile(text, { yaml: 'inline' }))) }
    },
    waitForPayments(requestId, count, timeoutMs = 15_000) {
      return waitFor(
        () => {
          const record = getRequest(ctx, requestId)
          return record.payments.length >= count ? record : undefined
        },
        {
          what: `the chain detector to record ${count} payment(s) of ${requestId}`,
          timeoutMs,
          intervalMs: 50,
        },
      )
    },
  }
  return api
}
