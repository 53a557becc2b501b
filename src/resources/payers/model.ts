// Differences from the real service: the agreement and KYC are run by the sandbox itself (pages under
// /__sandbox/payer-pages/, no Sumsub or pay.so): the agreement is `pending` as soon as the payer is created (its
// link is issued), completing it initiates KYC, and a submitted KYC is approved after `complianceDelayMs` of
// the tenant clock unless decided on the KYC page or forced. A second POST for the same clientUserId is refused
// (400) rather than answered with the current status. Payment details do not require a compliant payer.
import type { CredentialDirectory } from '../../contract/ports.ts'
import type { World } from '../../contract/world.ts'
import { DuplicateKeyError } from '../../store/table.ts'
import { inWorld, type Uses } from '../services.ts'
import {
  type ComplianceState,
  completeAgreement,
  IllegalMove,
  isCompliant,
  type KycAction,
  kycMoves,
} from './compliance.ts'
import { IllegalComplianceMoveError, PayerExistsError, PayerNotFoundError } from './errors.ts'
import { payerLinks } from './page-urls.ts'
import type { CreatePayerBody, KycStatus, PayerRecord } from './schema.ts'
import { payerState } from './tables.ts'

type Ctx = Uses<'compliance' | 'directory' | 'events' | 'ids'>

/** One of the caller's payers; 404 in the documented words otherwise. */
export function getPayer(ctx: Ctx, clientUserId: string): PayerRecord {
  const record = payerState(ctx.world).payers.get(clientUserId)
  if (!record) throw new PayerNotFoundError(clientUserId)
  return record
}

/** The compliance view real clients read (GET payer): statuses at the top level, with the links. */
export function complianceView(record: PayerRecord) {
  return {
    kycStatus: record.kycStatus,
    agreementStatus: record.agreementStatus,
    isCompliant: isCompliant(record),
    userId: record.userId,
    ...payerLinks(record.linkBase, record.pageToken),
  }
}

/** Stores the new statuses and emits `compliance.updated` with the webhook's fields; no-op when unchanged. */
async function move(
  ctx: Ctx,
  record: PayerRecord,
  next: Partial<ComplianceState>,
  trigger: string,
): Promise<PayerRecord> {
  const state: ComplianceState = {
    agreementStatus: next.agreementStatus ?? record.agreementStatus,
    kycStatus: next.kycStatus ?? record.kycStatus,
  }
  if (state.agreementStatus === record.agreementStatus && state.kycStatus === record.kycStatus) return record
  const { world } = ctx
  const now = world.clock.now().toISOString()
  const updated = (await payerState(world).payers.update(record.clientUserId, (draft) => {
    draft.agreementStatus = state.agreementStatus
    draft.kycStatus = state.kycStatus
    draft.updatedAt = now
  }))!
  ctx.events.emit(world, 'compliance.updated', {
    clientUserId: record.clientUserId,
    kycStatus: state.kycStatus,
    agreementStatus: state.agreementStatus,
    isCompliant: isCompliant(state),
    timestamp: now,
    rawPayload: {
      provider: 'request-sandbox',
      userId: record.userId,
      trigger,
      previous: { agreementStatus: record.agreementStatus, kycStatus: record.kycStatus },
    },
  })
  return updated
}

/** Cancels the scheduled KYC review of a payer, if any. */
async function cancelReview(ctx: Ctx, record: PayerRecord): Promise<PayerRecord> {
  if (record.kycReviewTimer === null) return record
  ctx.world.clock.cancel(record.kycReviewTimer)
  return (await payerState(ctx.world).payers.update(record.clientUserId, (d) => {
    d.kycReviewTimer = null
  }))!
}

/** Arms a restored payer's KYC review again (its timer died with the process: --state-dir), if one was pending. */
export async function resumeKycReview(ctx: Ctx, record: PayerRecord): Promise<void> {
  if (record.kycReviewTimer === null || record.kycStatus !== 'pending') return
  await scheduleReview(ctx, record)
}

/** Schedules the provider's decision on a submitted KYC after the configured delay, if still pending: approved, or the world's `kycOutcome` rule. */
async function scheduleReview(ctx: Ctx, record: PayerRecord): Promise<PayerRecord> {
  const { world } = ctx
  const at = new Date(world.clock.now().getTime() + ctx.compliance.kycReviewMs)
  const bound = inWorld(ctx, world)
  const timer = world.clock.schedule(at, `kyc review of ${record.clientUserId}`, async () => {
    // a cancelled review never runs (clock.cancel), so a pending KYC here is the one this review was for
    const current = payerState(world).payers.get(record.clientUserId)
    if (current?.kycStatus !== 'pending') return
    const cleared = (await payerState(world).payers.update(current.clientUserId, (d) => {
      d.kycReviewTimer = null
    }))!
    const outcome = world.rules.kycOutcome ?? 'approved'
    if (outcome !== 'pending') await move(bound, cleared, { kycStatus: outcome }, `kyc_review_${outcome}`)
  })
  return (await payerState(world).payers.update(record.clientUserId, (d) => {
    d.kycReviewTimer = timer
  }))!
}

/** Creates a payer: statuses not_started, then the agreement link is issued (agreement pending, one event). */
export async function createPayer(ctx: Ctx, body: CreatePayerBody, linkBase: string): Promise<PayerRecord> {
  const { world } = ctx
  if (payerState(world).payers.get(body.clientUserId)) throw new PayerExistsError(body.clientUserId)
  const now = world.clock.now().toISOString()
  const pageToken = ctx.ids.hex(16)
  let record: PayerRecord
  try {
    record = await payerState(world).payers.insert({
      ...body,
      companyName: body.companyName ?? null,
      addressLine2: body.addressLine2 ?? null,
      sourceOfFunds: body.sourceOfFunds ?? null,
      businessActivity: body.businessActivity ?? null,
      userId: ctx.ids.uuid(),
      agreementStatus: 'not_started',
      kycStatus: 'not_started',
      pageToken,
      linkBase,
      kycReviewTimer: null,
      createdAt: now,
      updatedAt: now,
    })
  } catch (error) {
    if (error instanceof DuplicateKeyError) throw new PayerExistsError(body.clientUserId)
    throw error
  }
  ctx.directory.pageTokenToPayer.set(pageToken, {
    tenant: world.tenant,
    scenario: world.scenario,
    clientUserId: record.clientUserId,
  })
  return move(ctx, record, { agreementStatus: 'pending' }, 'agreement_issued')
}

/** Completes the payer's agreement (PATCH or the agreement page); twice is harmless. */
export async function markAgreementCompleted(
  ctx: Ctx,
  clientUserId: string,
  trigger: string,
): Promise<PayerRecord> {
  const record = getPayer(ctx, clientUserId)
  const next = completeAgreement(record)
  if (next instanceof IllegalMove) throw new IllegalComplianceMoveError(next.message)
  return move(ctx, record, next, trigger)
}

/** Runs a KYC page action: each status it passes through is one move and one event. */
export async function applyKycAction(
  ctx: Ctx,
  clientUserId: string,
  action: KycAction,
): Promise<PayerRecord> {
  let record = getPayer(ctx, clientUserId)
  const moves = kycMoves(record.kycStatus, action)
  if (moves instanceof IllegalMove) throw new IllegalComplianceMoveError(moves.message)
  record = await cancelReview(ctx, record)
  for (const kycStatus of moves) record = await move(ctx, record, { kycStatus }, `kyc_page_${action}`)
  if (record.kycStatus === 'pending') record = await scheduleReview(ctx, record)
  return record
}

/** Forces statuses directly (tests): skips intermediate states, cancels a pending review, emits one event. */
export async function forceCompliance(
  ctx: Ctx,
  clientUserId: string,
  next: {
    kycStatus?: KycStatus | undefined
    agreementStatus?: ComplianceState['agreementStatus'] | undefined
  },
): Promise<PayerRecord> {
  const record = await cancelReview(ctx, getPayer(ctx, clientUserId))
  const state: Partial<ComplianceState> = {}
  if (next.kycStatus) state.kycStatus = next.kycStatus
  if (next.agreementStatus) state.agreementStatus = next.agreementStatus
  return move(ctx, record, state, 'forced')
}

/**
 * Names `world` in the directory for each of its payers' page tokens: a world filled back from a snapshot keeps its
 * payers' agreement and KYC pages opening.
 */
export function indexPayerPages(
  directory: Pick<CredentialDirectory, 'pageTokenToPayer'>,
  world: World,
): void {
  for (const payer of payerState(world).payers.all())
    directory.pageTokenToPayer.set(payer.pageToken, {
      tenant: world.tenant,
      scenario: world.scenario,
      clientUserId: payer.clientUserId,
    })
}
