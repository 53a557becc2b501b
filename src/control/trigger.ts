// `request-sandbox trigger <event>` and POST /__sandbox/trigger: makes an event happen for real in a key's world,
// with the objects behind it, through the seed API (the models the API itself uses, real transactions on the
// chain). Nothing is emitted by hand: the detector, the off-ramp, the relayer and the compliance machine emit.
import { z } from 'zod'
import type { EventType, SandboxEvent } from '../contract/events.ts'
import { BadRequestError, SandboxError } from '../contract/sandbox-error.ts'
import type { World } from '../contract/world.ts'
import { buildPayment } from '../resources/pay/index.ts'
import { getRequest } from '../resources/requests/index.ts'
import {
  CreateSecurePaymentBody,
  createSecurePayment,
  recordUserEvent,
  securePaymentCalldata,
} from '../resources/secure-payments/index.ts'
import { inWorld } from '../resources/services.ts'
import { fundedWallet } from './funded-wallet.ts'
import type { ScenarioSeedApi } from './scenarios/define.ts'
import { createSeedApi } from './scenarios/seed-api.ts'
import type { SandboxState } from './services.ts'

/** Names an override path may not hold: setting them would reach Object.prototype (every object of the server). */
const UNSAFE_NAMES = new Set(['__proto__', 'constructor', 'prototype'])

/** Body of POST /__sandbox/trigger. */
export const TriggerBody = z
  .object({
    event: z.string().min(1),
    /** dot paths of the created object's body (`amount`, `recurrence.frequency`) and their values */
    overrides: z
      .record(
        z
          .string()
          .regex(/^[\w-]+(\.[\w-]+)*$/, 'an override path is dot-separated names')
          .refine(
            (path) => !path.split('.').some((name) => UNSAFE_NAMES.has(name)),
            'an override path names no __proto__, constructor or prototype',
          ),
        z.unknown(),
      )
      .optional(),
    /** act on this existing request instead of creating one (payment events) */
    requestId: z.string().min(1).optional(),
    /** act on this existing payer instead of creating one (compliance and payment-detail events) */
    clientUserId: z.string().min(1).optional(),
  })
  .strict()
export type TriggerBody = z.infer<typeof TriggerBody>

/** What a trigger made and the events that followed. */
export interface TriggerResult {
  event: string
  /** the objects created or acted on, by name (ids, addresses, transaction hashes) */
  objects: Record<string, unknown>
  /** the events the world recorded while the trigger ran, oldest first */
  events: SandboxEvent[]
}

interface TriggerContext {
  api: ScenarioSeedApi
  shared: SandboxState
  world: World
  body: TriggerBody
}

interface TriggerDefinition {
  description: string
  /** the event types this trigger waits for (the first is the one it is named after) */
  waitsFor: EventType[]
  run(t: TriggerContext): Promise<Record<string, unknown>>
}

/** Sets `path` (a.b.c) of a copy of `target` to `value`. */
export function setPath(
  target: Record<string, unknown>,
  path: string,
  value: unknown,
): Record<string, unknown> {
  const out = structuredClone(target)
  const names = path.split('.')
  let at = out
  if (names.some((name) => UNSAFE_NAMES.has(name)))
    throw new BadRequestError(`Override path ${path} is not allowed`)
  for (const name of names.slice(0, -1)) {
    const next = Object.hasOwn(at, name) ? at[name] : undefined
    at[name] = typeof next === 'object' && next !== null && !Array.isArray(next) ? next : {}
    at = at[name] as Record<string, unknown>
  }
  at[names.at(-1)!] = value
  return out
}

function withOverrides(body: Record<string, unknown>, overrides: Record<string, unknown> | undefined) {
  return Object.entries(overrides ?? {}).reduce((acc, [path, value]) => setPath(acc, path, value), body)
}

/** A funded payer wallet for a payment in `currency`. */
const fundedPayer = (t: TriggerContext, currency: string) => fundedWallet(t.api, t.shared, currency)

function requestBody(t: TriggerContext, extra: Record<string, unknown> = {}) {
  return withOverrides(
    {
      amount: '10',
      invoiceCurrency: 'FAU-sepolia',
      paymentCurrency: 'FAU-sepolia',
      payee: t.api.faker.finance.ethereumAddress(),
      reference: `INV-${t.api.faker.string.numeric(5)}`,
      ...extra,
    },
    t.body.overrides,
  )
}

/** Pays a request (created, or the one named by requestId) in full or in part. */
async function payRequest(t: TriggerContext, part: 'full' | 'half') {
  let requestId = t.body.requestId
  if (!requestId) {
    const created = await t.api.createRequest(requestBody(t) as never)
    requestId = created.requestId
  }
  const record = getRequest(inWorld(t.shared, t.world), requestId)
  const payer = await fundedPayer(t, record.paymentCurrency)
  const before = record.payments.length
  const due = Number(record.amount)
  const amount = part === 'half' ? String(Number.isFinite(due) && due > 0 ? due / 2 : 1) : undefined
  const txHashes = await t.api.pay(requestId, payer, amount ? { amount } : {})
  const paid = await t.api.waitForPayments(requestId, before + 1)
  return {
    requestId,
    paymentReference: paid.paymentReference,
    payer: payer.address,
    payee: paid.payee,
    txHashes,
  }
}

/** A payer at the compliance state a trigger needs (created, or the one named by clientUserId). */
async function compliantPayer(t: TriggerContext) {
  if (t.body.clientUserId) return t.api.models.payers.get(t.body.clientUserId)
  const created = await t.api.models.payers.create(
    withOverrides(t.api.payerBody(), t.body.overrides) as never,
  )
  return created
}

async function approvedDetail(t: TriggerContext, clientUserId: string) {
  const payer = t.api.models.payers.get(clientUserId)
  const detail = await t.api.models.paymentDetails.create(clientUserId, t.api.bankDetails(payer) as never)
  return t.api.models.paymentDetails.force(clientUserId, detail.id, 'approved')
}

/** A daily recurring payout (first payment due now); `funded: false` leaves the payer without the token. */
async function recurringPayout(t: TriggerContext, funded: boolean) {
  const payer = t.api.wallet()
  await t.api.fund(payer.address, 'ETH-sepolia-sepolia', '10')
  if (funded) await t.api.fund(payer.address, 'FAU-sepolia', '1000')
  const created = await t.api.startRecurringPayout(
    payer,
    withOverrides(
      {
        amount: '10',
        invoiceCurrency: 'FAU-sepolia',
        paymentCurrency: 'FAU-sepolia',
        payee: t.api.faker.finance.ethereumAddress(),
        recurrence: {
          startDate: t.api.clock.now().toISOString(),
          frequency: 'DAILY',
          totalPayments: 3,
          payer: payer.address,
        },
      },
      t.body.overrides,
    ) as never,
  )
  return { payoutId: created.id, payer: payer.address }
}

/** A secure payment link (one request of 25 FAU-sepolia, or the overridden body) in the key's world. */
async function secureLink(t: TriggerContext, extra: Record<string, unknown> = {}) {
  const body = CreateSecurePaymentBody.parse(
    withOverrides(
      {
        requests: [{ payee: t.api.faker.finance.ethereumAddress(), currency: 'FAU-sepolia', amount: '25' }],
        reference: `INV-${t.api.faker.string.numeric(5)}`,
        ...extra,
      },
      t.body.overrides,
    ),
  )
  return createSecurePayment(inWorld(t.shared, t.world), body)
}

/** Every event `trigger` knows, in the order `--list` shows them. */
export const TRIGGERS: Record<string, TriggerDefinition> = {
  'payment.confirmed': {
    description: 'creates a 10 FAU-sepolia request (or takes --request) and pays it in full on the chain',
    waitsFor: ['payment.confirmed'],
    run: (t) => payRequest(t, 'full'),
  },
  'payment.partial': {
    description: 'creates a request (or takes --request) and pays half of what is due on the chain',
    waitsFor: ['payment.partial'],
    run: (t) => payRequest(t, 'half'),
  },
  'payment.processing': {
    description:
      'a compliant payer with approved bank details pays a crypto-to-fiat request; the off-ramp walks every sub-status (the clock is advanced through them) to payment.confirmed, or to payment.failed / payment.refunded under the offrampOutcome rule',
    waitsFor: ['payment.processing'],
    async run(t) {
      const payer = await compliantPayer(t)
      await t.api.models.payers.force(payer.clientUserId, {
        agreementStatus: 'completed',
        kycStatus: 'approved',
      })
      const detail = await approvedDetail(t, payer.clientUserId)
      const request = await t.api.createRequest(
        requestBody(t, { isCryptoToFiatAvailable: true, payee: undefined }) as never,
      )
      const wallet = await fundedPayer(t, request.paymentCurrency)
      const ctx = inWorld(t.shared, t.world)
      const payment = await buildPayment(ctx, getRequest(ctx, request.requestId), {
        wallet: wallet.address,
        clientUserId: payer.clientUserId,
        paymentDetailsId: detail.id,
      } as never)
      if (!('transactions' in payment))
        throw new SandboxError(500, 'the off-ramp payment has no transactions')
      const txHashes = await t.api.send(wallet, payment.transactions)
      await t.api.waitForPayments(request.requestId, 1)
      // every sub-status now rather than one every offrampStepSeconds of the key's clock
      const steps = 4
      for (let i = 0; i < steps; i++) await t.world.clock.advance(t.world.rules.offrampStepSeconds * 1000)
      return {
        requestId: request.requestId,
        clientUserId: payer.clientUserId,
        paymentDetailsId: detail.id,
        payer: wallet.address,
        txHashes,
      }
    },
  },
  'payment.failed': {
    description:
      "a recurring payout whose payer approved the proxy but holds no token: the relayer's first payment fails on chain and the payout pauses",
    waitsFor: ['payment.failed'],
    run: (t) => recurringPayout(t, false),
  },
  'request.recurring': {
    description:
      "a DAILY recurring request starting now; the key's clock is moved a day on, so its first child is created",
    waitsFor: ['request.recurring'],
    async run(t) {
      const created = await t.api.createRequest(
        requestBody(t, {
          recurrence: { startDate: t.api.clock.now().toISOString(), frequency: 'DAILY' },
        }) as never,
      )
      await t.world.clock.advance(86_400_000)
      return { requestId: created.requestId }
    },
  },
  'payout.recurring': {
    description:
      'a funded DAILY recurring payout, activated as a wallet would: the relayer pays the first one (request.recurring, then payment.confirmed with recurringPayment)',
    waitsFor: ['request.recurring', 'payment.confirmed'],
    run: (t) => recurringPayout(t, true),
  },
  'payment.confirmed.checkout': {
    description:
      'a secure payment link paid as its page does: wallet connected, transactions sent from a funded wallet and reported (secure_payment.user_event), then payment.confirmed and its .checkout variant',
    waitsFor: ['payment.confirmed.checkout', 'secure_payment.user_event'],
    async run(t) {
      const link = await secureLink(t)
      const wallet = await fundedWallet(t.api, t.shared, 'FAU-sepolia')
      recordUserEvent(t.shared, t.world, link, {
        userEvent: 'wallet_connected',
        walletAddress: wallet.address,
      })
      const payment = await securePaymentCalldata(t.shared, t.world, link, { wallet: wallet.address })
      if (!('transactions' in payment)) throw new SandboxError(500, 'a single link answered batch calldata')
      const txHashes = await t.api.send(wallet, payment.transactions as never)
      recordUserEvent(t.shared, t.world, link, {
        userEvent: 'payment_approved_in_wallet',
        walletAddress: wallet.address,
        txHash: txHashes.at(-1),
      })
      return { securePaymentToken: link.token, requestIds: link.requestIds, payer: wallet.address, txHashes }
    },
  },
  'secure_payment.user_event': {
    description: "a secure payment link whose page reports a connected wallet (the payer's first step)",
    waitsFor: ['secure_payment.user_event'],
    async run(t) {
      const link = await secureLink(t)
      const wallet = t.api.wallet()
      recordUserEvent(t.shared, t.world, link, {
        userEvent: 'wallet_connected',
        walletAddress: wallet.address,
      })
      return { securePaymentToken: link.token, requestIds: link.requestIds, wallet: wallet.address }
    },
  },
  'secure_payment.access_rejected': {
    description: 'a secure payment link that allows one wallet, opened with another',
    waitsFor: ['secure_payment.access_rejected'],
    async run(t) {
      const allowed = t.api.wallet()
      const link = await secureLink(t, { accessPolicy: { allowedPayerAddresses: [allowed.address] } })
      const stranger = t.api.wallet()
      recordUserEvent(t.shared, t.world, link, {
        userEvent: 'wallet_connected',
        walletAddress: stranger.address,
      })
      return { securePaymentToken: link.token, requestIds: link.requestIds, rejectedWallet: stranger.address }
    },
  },
  'compliance.updated': {
    description: 'creates a payer (or takes --payer) and completes its agreement and KYC (approved)',
    waitsFor: ['compliance.updated'],
    async run(t) {
      const payer = await compliantPayer(t)
      await t.api.models.payers.force(payer.clientUserId, {
        agreementStatus: 'completed',
        kycStatus: (t.body.overrides?.kycStatus as never) ?? 'approved',
      })
      return { clientUserId: payer.clientUserId }
    },
  },
  'payment_detail.updated': {
    description: 'adds bank details to a payer (created, or --payer) and approves them',
    waitsFor: ['payment_detail.updated'],
    async run(t) {
      const payer = await compliantPayer(t)
      const detail = await approvedDetail(t, payer.clientUserId)
      return { clientUserId: payer.clientUserId, paymentDetailsId: detail.id }
    },
  },
}

/** The list `trigger --list` prints and GET /__sandbox/triggers answers. */
export function triggerList() {
  return Object.entries(TRIGGERS).map(([event, d]) => ({
    event,
    emits: d.waitsFor,
    description: d.description,
  }))
}

/** Runs a trigger in the key's world and waits for the events it names. */
export async function runTrigger(
  shared: SandboxState,
  world: World,
  body: TriggerBody,
  baseUrl: string,
): Promise<TriggerResult> {
  const definition = Object.hasOwn(TRIGGERS, body.event) ? TRIGGERS[body.event] : undefined
  if (!definition)
    throw new BadRequestError(
      `Unknown event ${body.event}: one of ${Object.keys(TRIGGERS).join(', ')} (request-sandbox trigger --list)`,
    )
  const api = await createSeedApi(shared, world, null, baseUrl)
  const from = world.events.length
  let objects: Record<string, unknown>
  try {
    objects = await definition.run({ api, shared, world, body })
  } catch (error) {
    if (error instanceof z.ZodError)
      throw new BadRequestError(`The overrides make an invalid body: ${z.prettifyError(error)}`)
    throw error
  }
  const wanted = definition.waitsFor
  const seen = () => world.events.slice(from)
  await api
    .waitFor(
      () => (wanted.every((type) => seen().some((e) => e.type === type)) ? true : undefined),
      `the ${wanted.join(' and ')} event`,
      30_000,
    )
    .catch(() => {
      throw new SandboxError(504, `The objects were made but no ${wanted.join(' / ')} event followed in 30 s`)
    })
  return { event: body.event, objects, events: seen() }
}
