// mounting the resource registers what its worlds take up again when they come back (beside its state)
import './resume.ts'
import { z } from 'zod'
import { publicBaseUrl } from '../../contract/public-url.ts'
import type { InvalidHandler } from '../../contract/route.ts'
import { BOTH_VERSIONS, routesUsing, versioned } from '../../contract/route.ts'
import { BadRequestError } from '../../contract/sandbox-error.ts'
import type { Services } from '../services.ts'
import { isCompliant } from './compliance.ts'
import { complianceView, createPayer, forceCompliance, getPayer, markAgreementCompleted } from './model.ts'
import { CreatePayerBody, ForceComplianceBody, type PayerRecord, UpdateAgreementBody } from './schema.ts'

const defineRoute = routesUsing<Services<'compliance' | 'directory' | 'events' | 'ids'>>()

const PayerParams = z.object({ clientUserId: z.string().min(1) })

/** The documented nested summary only knows `not_started` and `completed` (V2 schema enum). */
const summary = (status: string) =>
  status === 'completed' || status === 'approved' ? 'completed' : 'not_started'

/** 200 of POST payer: the documented shape (nested `status`) plus the top-level statuses real clients read. */
function createdView(record: PayerRecord) {
  const view = complianceView(record)
  return {
    agreementUrl: view.agreementUrl,
    kycUrl: view.kycUrl,
    userId: record.userId,
    status: { agreementStatus: summary(record.agreementStatus), kycStatus: summary(record.kycStatus) },
    agreementStatus: record.agreementStatus,
    kycStatus: record.kycStatus,
    isCompliant: isCompliant(record),
  }
}

/** PATCH answers a missing or non-boolean flag with the documented E1 message. */
const agreementInvalid: InvalidHandler = (issues) =>
  new BadRequestError(
    issues.some(
      (i) => i.path.length === 0 || (i.code === 'invalid_type' && i.message.endsWith('received undefined')),
    )
      ? 'agreementCompleted must be provided'
      : 'agreementCompleted must be a boolean',
  )

/** Endpoints 1, 2 and the payer GET, each under v1 and v2 (identical twins). */
export const payerRoutes = versioned(BOTH_VERSIONS, (version) => [
  defineRoute({
    method: 'POST',
    path: `/${version}/payer`,
    credentials: ['api-key'],
    surface: 'api',
    summary: 'Create compliance data for a payer',
    statuses: [200],
    body: CreatePayerBody,
    async handler(ctx, { body, request }) {
      return { status: 200, body: createdView(await createPayer(ctx, body, publicBaseUrl(request))) }
    },
  }),
  defineRoute({
    method: 'GET',
    path: `/${version}/payer/:clientUserId`,
    credentials: ['api-key'],
    surface: 'api',
    summary: 'Get the compliance status of a payer',
    statuses: [200, 404],
    params: PayerParams,
    handler(ctx, { params }) {
      return { status: 200, body: complianceView(getPayer(ctx, params.clientUserId)) }
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: `/${version}/payer/:clientUserId`,
    credentials: ['api-key'],
    surface: 'api',
    summary: 'Update the agreement status of a payer',
    statuses: [200, 404],
    params: PayerParams,
    body: UpdateAgreementBody,
    onInvalid: agreementInvalid,
    async handler(ctx, { params, body }) {
      getPayer(ctx, params.clientUserId)
      if (!body.agreementCompleted) {
        throw new BadRequestError(
          'agreementCompleted must be true: a completed agreement cannot be withdrawn',
        )
      }
      await markAgreementCompleted(ctx, params.clientUserId, 'agreement_patch')
      return { status: 200, body: { success: true } }
    },
  }),
])

/** `POST /__sandbox/payers/{clientUserId}/compliance`: forces statuses for tests (caller's tenant). */
export const payerControlRoutes = [
  defineRoute({
    method: 'POST',
    path: '/__sandbox/payers/:clientUserId/compliance',
    credentials: ['api-key'],
    surface: 'control',
    summary: "Forces a payer's kycStatus and/or agreementStatus (skips intermediate states, emits the event)",
    statuses: [200, 404],
    params: PayerParams,
    body: ForceComplianceBody,
    async handler(ctx, { params, body }) {
      return { status: 200, body: complianceView(await forceCompliance(ctx, params.clientUserId, body)) }
    },
  }),
]
