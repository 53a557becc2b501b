// Public routes behind agreementUrl and kycUrl: the token in the link names the payer (TenantDirectory), so the
// pages work in a browser without the tenant's API key, which never appears in a URL.
import { z } from 'zod'
import { routesUsing } from '../../contract/route.ts'
import { NotFoundError } from '../../contract/sandbox-error.ts'
import { pageSecurityHeaders } from '../../contract/security.ts'
import { inWorld, type Services, type Uses } from '../services.ts'
import { isCompliant } from './compliance.ts'
import { PageLinkNotFoundError } from './errors.ts'
import { applyKycAction, getPayer, markAgreementCompleted } from './model.ts'
import { agreementPage, kycPage, payerPageAsset, unknownLinkPage } from './page/page.ts'
import type { PayerRecord } from './schema.ts'
import { payerState } from './tables.ts'

type Ctx = Uses<'compliance' | 'directory' | 'events' | 'ids' | 'worlds'>

const defineRoute = routesUsing<Services<'compliance' | 'directory' | 'events' | 'ids' | 'worlds'>>()

const TokenParams = z.object({ token: z.string() })
const html = 'text/html; charset=utf-8'

/** The payer a link token names, with a context bound to its tenant's world; null for unknown tokens. */
function resolve(ctx: Ctx, token: string): { ctx: Ctx; clientUserId: string } | null {
  const owner = ctx.directory.pageTokenToPayer.get(token)
  if (!owner) return null
  const world = ctx.worlds.get(owner.tenant, owner.scenario)
  if (!payerState(world).payers.get(owner.clientUserId)) return null
  return {
    ctx: inWorld(ctx, world),
    clientUserId: owner.clientUserId,
  }
}

function mustResolve(ctx: Ctx, token: string) {
  const found = resolve(ctx, token)
  if (!found) throw new PageLinkNotFoundError()
  return found
}

const state = (p: PayerRecord) => ({
  agreementStatus: p.agreementStatus,
  kycStatus: p.kycStatus,
  isCompliant: isCompliant(p),
})

/** The agreement and KYC pages, their style sheet and script, and their actions. */
export const payerPageRoutes = [
  defineRoute({
    method: 'GET',
    path: '/__sandbox/payer-pages/:file',
    credentials: ['public'],
    surface: 'control',
    summary: "The agreement and KYC pages' style sheet and script",
    statuses: [200, 404],
    params: z.object({ file: z.string() }),
    handler(_ctx, { params }) {
      const asset = payerPageAsset(params.file)
      if (!asset) throw new NotFoundError(`No payer page file ${params.file}`)
      return {
        status: 200,
        body: asset.text,
        contentType: asset.contentType,
        headers: { 'cache-control': 'no-cache' },
      }
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/__sandbox/payer-pages/:token/agreement',
    credentials: ['public'],
    surface: 'control',
    summary: 'The agreement page behind agreementUrl (embeddable in an iframe)',
    statuses: [200, 404],
    params: TokenParams,
    handler(ctx, { params }) {
      const found = resolve(ctx, params.token)
      if (!found) return { status: 404, body: unknownLinkPage(), contentType: html }
      return {
        status: 200,
        body: agreementPage(getPayer(found.ctx, found.clientUserId)),
        contentType: html,
        // the service's agreement page is loaded in an iframe by the platform's app
        headers: pageSecurityHeaders('any'),
      }
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/__sandbox/payer-pages/:token/agreement',
    credentials: ['public'],
    surface: 'control',
    summary: 'Signs the agreement (what the agreement page posts)',
    statuses: [200, 404],
    params: TokenParams,
    async handler(ctx, { params }) {
      const found = mustResolve(ctx, params.token)
      return {
        status: 200,
        body: state(await markAgreementCompleted(found.ctx, found.clientUserId, 'agreement_page')),
      }
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/__sandbox/payer-pages/:token/kyc',
    credentials: ['public'],
    surface: 'control',
    summary: 'The KYC page behind kycUrl',
    statuses: [200, 404],
    params: TokenParams,
    handler(ctx, { params }) {
      const found = resolve(ctx, params.token)
      if (!found) return { status: 404, body: unknownLinkPage(), contentType: html }
      const seconds = ctx.compliance.kycReviewMs / 1000
      return {
        status: 200,
        body: kycPage(getPayer(found.ctx, found.clientUserId), seconds),
        contentType: html,
      }
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/__sandbox/payer-pages/:token/kyc',
    credentials: ['public'],
    surface: 'control',
    summary: 'A KYC page action: submit, approve, reject or retry',
    statuses: [200, 404],
    params: TokenParams,
    body: z.object({ action: z.enum(['submit', 'approve', 'reject', 'retry']) }),
    async handler(ctx, { params, body }) {
      const found = mustResolve(ctx, params.token)
      return { status: 200, body: state(await applyKycAction(found.ctx, found.clientUserId, body.action)) }
    },
  }),
]
