// Differences from the real service: details are checked by the sandbox's own rules (checksums, per-rail
// requirements) instead of the off-ramp provider's; a new detail is approved after `paymentDetailDelayMs` of the
// tenant clock (the provider says under 60 s) unless forced; the payer does not have to be compliant first.
import type { World } from '../../contract/world.ts'
import { PayerNotFoundError, payerState } from '../payers/index.ts'
import { inWorld, type Uses } from '../services.ts'
import { bankDetailProblems } from './bank-rules.ts'
import { InvalidBankDetailsError, PaymentDetailNotFoundError, UserNotFoundError } from './errors.ts'
import type { CreatePaymentDetailBody, PaymentDetailRecord, PaymentDetailStatus } from './schema.ts'
import { paymentDetailState } from './tables.ts'

type Ctx = Uses<'compliance' | 'directory' | 'events' | 'ids'>

/** A payer's payment detail by id, or undefined (for the pay endpoint's off-ramp parameters). */
export function findPaymentDetail(
  world: World,
  clientUserId: string,
  id: string,
): PaymentDetailRecord | undefined {
  const detail = paymentDetailState(world).paymentDetails.get(id)
  return detail && detail.clientUserId === clientUserId ? detail : undefined
}

/** Stores a status and emits `payment_detail.updated`; no-op when unchanged. */
async function setStatus(
  ctx: Ctx,
  detail: PaymentDetailRecord,
  status: PaymentDetailStatus,
  trigger: string,
): Promise<PaymentDetailRecord> {
  const { world } = ctx
  if (detail.reviewTimer !== null && status !== 'pending') world.clock.cancel(detail.reviewTimer)
  const now = world.clock.now().toISOString()
  const updated = (await paymentDetailState(world).paymentDetails.update(detail.id, (d) => {
    d.status = status
    if (status !== 'pending') d.reviewTimer = null
    d.updatedAt = now
  }))!
  if (detail.status !== status) {
    ctx.events.emit(world, 'payment_detail.updated', {
      paymentDetailsId: detail.id,
      clientUserId: detail.clientUserId,
      status,
      timestamp: now,
      rawPayload: {
        provider: 'request-sandbox',
        userId: detail.userId,
        trigger,
        previousStatus: detail.status,
      },
    })
  }
  return updated
}

/** Validates the bank details for their rail and country, stores them `pending`, schedules their approval. */
export async function createPaymentDetail(
  ctx: Ctx,
  clientUserId: string,
  body: CreatePaymentDetailBody,
): Promise<PaymentDetailRecord> {
  const { world } = ctx
  const payer = payerState(world).payers.get(clientUserId)
  if (!payer) throw new UserNotFoundError(clientUserId)
  const problems = bankDetailProblems(body)
  if (problems.length > 0) throw new InvalidBankDetailsError(problems)
  const now = world.clock.now()
  const id = ctx.ids.uuid()
  await paymentDetailState(world).paymentDetails.insert({
    id,
    clientUserId,
    userId: payer.userId,
    status: 'pending',
    bankName: body.bankName,
    accountName: body.accountName,
    beneficiaryType: body.beneficiaryType,
    currency: body.currency,
    rails: body.rails,
    accountType: body.accountType ?? null,
    addressLine1: body.addressLine1,
    city: body.city,
    country: body.country,
    dateOfBirth: body.dateOfBirth,
    postalCode: body.postalCode,
    accountNumber: body.accountNumber ?? null,
    routingNumber: body.routingNumber ?? null,
    addressLine2: body.addressLine2 ?? null,
    state: body.state ?? null,
    sortCode: body.sortCode ?? null,
    iban: body.iban ?? null,
    swiftBic: body.swiftBic ?? null,
    documentNumber: body.documentNumber ?? null,
    documentType: body.documentType ?? null,
    ribNumber: body.ribNumber ?? null,
    bsbNumber: body.bsbNumber ?? null,
    ncc: body.ncc ?? null,
    branchCode: body.branchCode ?? null,
    bankCode: body.bankCode ?? null,
    ifsc: body.ifsc ?? null,
    reviewTimer: null,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  })
  ctx.events.emit(world, 'payment_detail.updated', {
    paymentDetailsId: id,
    clientUserId,
    status: 'pending',
    timestamp: now.toISOString(),
    rawPayload: {
      provider: 'request-sandbox',
      userId: payer.userId,
      trigger: 'created',
      previousStatus: null,
    },
  })
  // scheduled once the detail is stored, so even a zero delay finds it
  return scheduleDetailReview(ctx, id, new Date(now.getTime() + ctx.compliance.paymentDetailReviewMs))
}

/** The provider's decision on a pending detail at `at`: approved, or the world's `bankDetailOutcome` rule. */
async function scheduleDetailReview(ctx: Ctx, id: string, at: Date): Promise<PaymentDetailRecord> {
  const { world } = ctx
  const bound = inWorld(ctx, world)
  const reviewTimer = world.clock.schedule(at, `payment detail ${id} review`, async () => {
    const current = paymentDetailState(world).paymentDetails.get(id)
    const outcome = world.rules.bankDetailOutcome ?? 'approved'
    if (current?.status === 'pending' && outcome !== 'pending')
      await setStatus(bound, current, outcome, `review_${outcome}`)
  })
  const stored = (await paymentDetailState(world).paymentDetails.update(id, (d) => {
    if (d.status === 'pending') d.reviewTimer = reviewTimer
  }))!
  return stored
}

/** Arms a restored detail's pending review again (its timer died with the process: --state-dir), when it was due. */
export async function resumeDetailReview(ctx: Ctx, record: PaymentDetailRecord): Promise<void> {
  if (record.reviewTimer === null || record.status !== 'pending') return
  const at = new Date(Date.parse(record.createdAt) + ctx.compliance.paymentDetailReviewMs)
  await scheduleDetailReview(ctx, record.id, at)
}

/** A payer's payment details, oldest first, or the one asked for; 404 for an unknown payer or id. */
export function listPaymentDetails(
  ctx: Ctx,
  clientUserId: string,
  paymentDetailsId?: string,
): PaymentDetailRecord[] {
  if (!payerState(ctx.world).payers.get(clientUserId)) throw new PayerNotFoundError(clientUserId)
  if (paymentDetailsId !== undefined) {
    const detail = findPaymentDetail(ctx.world, clientUserId, paymentDetailsId)
    if (!detail) throw new PaymentDetailNotFoundError(paymentDetailsId)
    return [detail]
  }
  return paymentDetailState(ctx.world)
    .paymentDetails.all()
    .filter((d) => d.clientUserId === clientUserId)
}

/** Forces a detail's status (tests): cancels a pending approval and emits the event. */
export async function forcePaymentDetailStatus(
  ctx: Ctx,
  clientUserId: string,
  id: string,
  status: PaymentDetailStatus,
): Promise<PaymentDetailRecord> {
  if (!payerState(ctx.world).payers.get(clientUserId)) throw new PayerNotFoundError(clientUserId)
  const detail = findPaymentDetail(ctx.world, clientUserId, id)
  if (!detail) throw new PaymentDetailNotFoundError(id)
  if (detail.reviewTimer !== null) ctx.world.clock.cancel(detail.reviewTimer)
  const cleared = (await paymentDetailState(ctx.world).paymentDetails.update(id, (d) => {
    d.reviewTimer = null
  }))!
  return setStatus(ctx, cleared, status, 'forced')
}
