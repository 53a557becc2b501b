// What a scenario file exports. This module has no runtime imports on purpose: scenario files are loaded
// through tsx's importer (from src/ or from the compiled build), and a second copy of this module is harmless.
// Scenario files reach the resource models only through the seed API they are handed, never by importing src/.
import type { Faker } from '@faker-js/faker'
import type { z } from 'zod'
import type { ApiTransaction, SandboxAccount } from '../../chain/index.ts'
import type { WorldRulesInput } from '../../contract/rules.ts'
import type {
  applyKycAction,
  CreatePayerBody,
  complianceView,
  forceCompliance,
  getPayer,
  markAgreementCompleted,
  PayerRecord,
} from '../../resources/payers/index.ts'
import type {
  CreatePaymentDetailBody,
  forcePaymentDetailStatus,
  PaymentDetailRecord,
} from '../../resources/payment-details/index.ts'
import type {
  activatePayout,
  createOneTimePayout,
  createRecurringPayout,
  getPayout,
  PayoutBody,
  updatePayout,
} from '../../resources/payouts/index.ts'
import type { CreateRequestBody, RequestRecord } from '../../resources/requests/index.ts'
import type { fakeBankDetails, fakePayerBody } from './fake-bodies.ts'

type Bound<F> = F extends (ctx: never, ...args: infer A) => infer R ? (...args: A) => R : never

/** A transaction as the API returns it (`value` as ethers' BigNumber JSON or a hex string). */
export type ServiceTx = ApiTransaction

/** The resource models, bound to the world being seeded, called exactly as the routes call them. */
export interface SeedModels {
  payers: {
    /** POST /v2/payer (agreement and KYC links use the seed's baseUrl) */
    create(body: z.input<typeof CreatePayerBody>): Promise<PayerRecord>
    /** PATCH /v2/payer/{clientUserId} {agreementCompleted: true} */
    completeAgreement(clientUserId: string): ReturnType<typeof markAgreementCompleted>
    /** what the payer does on the KYC page: submit, approve, reject, retry */
    kyc(clientUserId: string, action: Parameters<typeof applyKycAction>[2]): ReturnType<typeof applyKycAction>
    /** the forced transition of POST /__sandbox/payers/{clientUserId}/compliance */
    force: Bound<typeof forceCompliance>
    get: Bound<typeof getPayer>
    /** what GET /v2/payer/{clientUserId} answers (statuses and the agreement and KYC links) */
    view(clientUserId: string): ReturnType<typeof complianceView>
  }
  paymentDetails: {
    /** POST /v2/payer/{clientUserId}/payment-details (validated by the route's schema first) */
    create(clientUserId: string, body: z.input<typeof CreatePaymentDetailBody>): Promise<PaymentDetailRecord>
    /** the forced transition of POST /__sandbox/payers/{clientUserId}/payment-details/{id} */
    force: Bound<typeof forcePaymentDetailStatus>
  }
  payouts: {
    /** POST /v2/payouts with a recurrence (the body is validated by the route's schema first) */
    createRecurring(body: z.input<typeof PayoutBody>): ReturnType<typeof createRecurringPayout>
    /** POST /v2/payouts without recurrence: a request and its pay calldata */
    createOneTime(body: z.input<typeof PayoutBody>): ReturnType<typeof createOneTimePayout>
    activate: Bound<typeof activatePayout>
    update: Bound<typeof updatePayout>
    get: Bound<typeof getPayout>
  }
}

/** The ids a scenario seeds, by the names it documents in `creates` (listed by GET /__sandbox/scenarios). */
export type SeededIds = Record<string, string>

/**
 * What a seed function gets: a seeded faker, the clock of the world being seeded, the models the API itself uses
 * (bound to that world) and wallet helpers. Never the world or a route context: a seed builds state as the API would.
 */
export interface ScenarioSeedApi {
  /** a faker seeded from the sandbox seed, the scenario name and the tenant: the same data run after run */
  faker: Faker
  /** the tenant clock of the world being seeded (start dates of payouts, due dates) */
  clock: { now(): Date }
  /** where the client reached the sandbox (for links such as a payer's agreementUrl) */
  baseUrl: string
  /** a new key pair from the faker: the same under the same --seed, empty on chain until funded */
  wallet(): SandboxAccount
  /** a payer body (POST /v2/payer) made by the faker: a US individual whose clientUserId is an e-mail address */
  payerBody(): ReturnType<typeof fakePayerBody>
  /** US bank details (POST /v2/payer/{id}/payment-details) for that payer, valid on local rails */
  bankDetails(payer: {
    firstName: string
    lastName: string
    dateOfBirth: string
  }): ReturnType<typeof fakeBankDetails>
  /** the scenario's payer: a wallet funded with `rules.payerBalances` (the same wallet on every call) */
  payer(): Promise<SandboxAccount>
  /** the faucet: mints `amount` of a token, or sets the ETH balance, of `address` */
  fund(address: string, currency: string, amount: string): Promise<void>
  /** creates a request through the request model (the same schema and rules as POST /v2/request) */
  createRequest(body: z.input<typeof CreateRequestBody>): Promise<RequestRecord>
  /** pays a request on chain from `from` with the calldata GET /pay returns; the transaction hashes */
  pay(requestId: string, from: SandboxAccount, options?: { amount?: string }): Promise<string[]>
  /** sends transactions as the API returns them from `from` on a live network (default: the first one) */
  send(from: SandboxAccount, transactions: ServiceTx[], network?: string): Promise<string[]>
  /** signs EIP-712 typed data with `from`'s key (permits, as a payer's wallet would) */
  signTypedData(
    from: SandboxAccount,
    typedData: { domain: unknown; types: unknown; primaryType: string; message: unknown },
  ): Promise<string>
  /**
   * Creates a recurring payout and activates it as the payer's wallet would: sends the returned approval, signs the
   * SchedulePermit, submits the signature. Returns the creation answer (its `id` is the payout id).
   */
  startRecurringPayout(
    payer: SandboxAccount,
    body: z.input<typeof PayoutBody>,
  ): ReturnType<typeof createRecurringPayout>
  /** the resource models bound to this world (requests: use createRequest) */
  models: SeedModels
  /** polls `check` (every 50 ms) until it returns a value; throws naming `what` after the timeout */
  waitFor<T>(check: () => T | undefined, what: string, timeoutMs?: number): Promise<T>
  /**
   * Loads a world file (the text of a JSON or YAML file, or the name of a built-in one such as `demo`) into the
   * world being seeded; answers what it created by section and entry name (fixtures/world.schema.json)
   */
  worldFile(source: string): Promise<Record<string, Record<string, Record<string, unknown>>>>
  /** resolves when the chain detector has recorded `count` payments for the request (throws after timeout) */
  waitForPayments(requestId: string, count: number, timeoutMs?: number): Promise<RequestRecord>
}

/** A named state an integrator can switch to: starting data (seed) and behaviour (rules). */
export interface ScenarioDefinition {
  /** lower-case words joined by dashes; a file's name must be `<name>.ts` (or .js, .mjs, .json) */
  name: string
  description: string
  /** the ids the seed returns, name -> what it is (documentation for GET /__sandbox/scenarios) */
  creates?: Record<string, string>
  /** behaviour of the scenario's worlds (latency, failure status, rate limit, payer balances, outcomes) */
  rules?: WorldRulesInput
  /** set while the scenario needs something this sandbox version lacks: selecting it answers 501 with this */
  pending?: string
  /** builds the starting state through the seed API; returns the ids named in `creates` */
  seed?: (api: ScenarioSeedApi) => Promise<SeededIds | undefined> | SeededIds | undefined
}

/** Declares a scenario (an identity function that gives the file its types). */
export function defineScenario(definition: ScenarioDefinition): ScenarioDefinition {
  return definition
}
