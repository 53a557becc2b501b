// The 17 `/v2/orchestrators/*` operations (x-orchestrator-key) and the pages orchestrators bring: the hosted
// onboarding page of link intents and the bundled branding assets.
import { z } from 'zod'
import { routesUsing } from '../../contract/route.ts'
import { NotFoundError } from '../../contract/sandbox-error.ts'
import { inWorld, type Services } from '../services.ts'
import {
  createBranding,
  deleteBranding,
  getBranding,
  orchestratorBranding,
  updateBranding,
} from './branding.ts'
import { IntentUnavailableError, OrchestratorRequestError } from './errors.ts'
import { createFeeConfig, disableFeeConfig, listFeeConfigs, updateFeeConfig } from './fees.ts'
import {
  completeOnboarding,
  createIntent,
  findIntent,
  intentRefusal,
  linkClientId,
  listLinks,
  onboardingUrl,
  unlinkClientId,
} from './links.ts'
import { OnboardingLimitError } from './onboarding-limits.ts'
import { orchestratorOverview } from './overview.ts'
import { BRANDING_ASSETS, ONBOARDING_CSP, onboardingPage, onboardingResultPage } from './pages.ts'
import {
  BrandingBody,
  BrandingRecord,
  ClientIdParams,
  ClientIdQuery,
  CreateFeeConfigBody,
  FeeConfigRecord,
  IdParams,
  LinkClientIdBody,
  LinkedResponse,
  LinkIntentBody,
  LinkIntentResponse,
  LinkListResponse,
  OrchestratorWebhook,
  PageQuery,
  UpdateFeeConfigBody,
  WebhookBody,
  WebhookTestBody,
} from './schema.ts'
import { listWebhooks, registerWebhook, sendTestEvent, setWebhookActive } from './webhooks.ts'

type OrchestratorServices = Services<
  'currencies' | 'directory' | 'events' | 'ids' | 'onboarding' | 'portal' | 'webhooks' | 'worlds'
>
const defineRoute = routesUsing<OrchestratorServices>()

const KEY = ['orchestrator-key'] as const
const WebhookAnswer = z.object({ webhook: OrchestratorWebhook })

export const orchestratorRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v2/orchestrators/client-ids',
    credentials: KEY,
    surface: 'api',
    summary: 'List the client IDs linked to the orchestrator',
    statuses: [200],
    query: PageQuery,
    responses: { 200: LinkListResponse },
    handler: (ctx, { query }) => ({ status: 200, body: listLinks(ctx, query.page, query.limit) }),
  }),
  defineRoute({
    method: 'POST',
    path: '/v2/orchestrators/client-ids',
    credentials: KEY,
    surface: 'api',
    summary:
      "Link an existing cli_* client ID, with its owner's consent: the owner's API key in x-api-key (else 403)",
    statuses: [201, 403, 404, 409],
    body: LinkClientIdBody,
    responses: { 201: LinkedResponse },
    async handler(ctx, { body, request }) {
      const link = await linkClientId(ctx, body.clientId, request.headers['x-api-key']?.trim())
      return {
        status: 201,
        body: { link: { clientId: link.clientId, status: 'active' }, alreadyLinked: false },
      }
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v2/orchestrators/client-ids/:clientId',
    credentials: KEY,
    surface: 'api',
    summary: 'Unlink a client ID (it stays unlinkable)',
    statuses: [200, 404],
    params: ClientIdParams,
    async handler(ctx, { params }) {
      const link = await unlinkClientId(ctx, params.clientId)
      return { status: 200, body: { link: { clientId: link.clientId, status: 'unlinked' } } }
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v2/orchestrators/client-id-link-intents',
    credentials: KEY,
    surface: 'api',
    summary: 'Create an onboarding link intent (hosted onboarding URL, single use, 2 days)',
    statuses: [201, 429],
    body: LinkIntentBody,
    responses: { 201: LinkIntentResponse },
    async handler(ctx, { body, request }) {
      const intent = await createIntent(ctx, body)
      return {
        status: 201,
        body: {
          url: onboardingUrl(request, intent.token),
          intent: {
            id: intent.id,
            clientIdName: intent.clientIdName,
            ...(intent.externalId !== null ? { externalId: intent.externalId } : {}),
            used: intent.used,
            expiresAt: intent.expiresAt,
          },
        },
      }
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v2/orchestrators/branding',
    credentials: KEY,
    surface: 'api',
    summary: 'Create orchestrator or per-client-ID branding',
    statuses: [201, 404, 409],
    body: BrandingBody,
    responses: { 201: BrandingRecord },
    handler: async (ctx, { body }) => ({ status: 201, body: await createBranding(ctx, body) }),
  }),
  defineRoute({
    method: 'GET',
    path: '/v2/orchestrators/branding',
    credentials: KEY,
    surface: 'api',
    summary: 'Get effective branding (?clientId for a linked client ID)',
    statuses: [200, 404],
    query: ClientIdQuery,
    responses: { 200: BrandingRecord },
    handler: (ctx, { query }) => ({ status: 200, body: getBranding(ctx, query.clientId) }),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v2/orchestrators/branding',
    credentials: KEY,
    surface: 'api',
    summary: 'Update branding (only the fields sent)',
    statuses: [200, 404],
    body: BrandingBody,
    responses: { 200: BrandingRecord },
    handler: async (ctx, { body }) => ({ status: 200, body: await updateBranding(ctx, body) }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v2/orchestrators/branding',
    credentials: KEY,
    surface: 'api',
    summary: 'Remove branding (idempotent)',
    statuses: [200],
    query: ClientIdQuery,
    handler: async (ctx, { query }) => ({
      status: 200,
      body: { deleted: await deleteBranding(ctx, query.clientId) },
    }),
  }),
  defineRoute({
    method: 'POST',
    path: '/v2/orchestrators/webhooks/test',
    credentials: KEY,
    surface: 'api',
    summary: 'Send a signed test event to every active endpoint',
    statuses: [201],
    body: WebhookTestBody,
    // orchestrators/webhooks.mdx's answer: `{"sent": 1, "failed": 0}`
    responses: {
      201: z.object({
        sent: z.number().int().nonnegative().meta({ example: 1 }),
        failed: z.number().int().nonnegative().meta({ example: 0 }),
      }),
    },
    handler: (ctx, { body }) => ({ status: 201, body: sendTestEvent(ctx, body.eventType) }),
  }),
  defineRoute({
    method: 'POST',
    path: '/v2/orchestrators/webhooks',
    credentials: KEY,
    surface: 'api',
    summary: 'Register a webhook endpoint (the secret is answered once)',
    statuses: [201, 400, 409],
    body: WebhookBody,
    responses: { 201: WebhookAnswer.extend({ secret: z.string() }) },
    handler: async (ctx, { body }) => ({ status: 201, body: await registerWebhook(ctx, body.url) }),
  }),
  defineRoute({
    method: 'GET',
    path: '/v2/orchestrators/webhooks',
    credentials: KEY,
    surface: 'api',
    summary: 'List webhook endpoints, inactive ones included',
    statuses: [200],
    responses: { 200: z.object({ webhooks: z.array(OrchestratorWebhook) }) },
    handler: (ctx) => ({ status: 200, body: listWebhooks(ctx) }),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v2/orchestrators/webhooks/:id',
    credentials: KEY,
    surface: 'api',
    summary: 'Reactivate a webhook endpoint',
    statuses: [200, 404],
    params: IdParams,
    responses: { 200: WebhookAnswer },
    handler: (ctx, { params }) => ({ status: 200, body: setWebhookActive(ctx, params.id, true) }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v2/orchestrators/webhooks/:id',
    credentials: KEY,
    surface: 'api',
    summary: 'Deactivate a webhook endpoint (URL and secret kept)',
    statuses: [200, 404],
    params: IdParams,
    responses: { 200: WebhookAnswer },
    handler: (ctx, { params }) => ({ status: 200, body: setWebhookActive(ctx, params.id, false) }),
  }),
  defineRoute({
    method: 'POST',
    path: '/v2/orchestrators/fee-configs',
    credentials: KEY,
    surface: 'api',
    summary: 'Create an orchestrator fee or a per-client-ID override',
    statuses: [201, 404, 409],
    body: CreateFeeConfigBody,
    responses: { 201: FeeConfigRecord },
    handler: async (ctx, { body }) => ({ status: 201, body: await createFeeConfig(ctx, body) }),
  }),
  defineRoute({
    method: 'GET',
    path: '/v2/orchestrators/fee-configs',
    credentials: KEY,
    surface: 'api',
    summary: 'List fee configs (?clientId for one client ID)',
    statuses: [200],
    query: ClientIdQuery,
    responses: { 200: z.array(FeeConfigRecord) },
    handler: (ctx, { query }) => ({ status: 200, body: listFeeConfigs(ctx, query.clientId) }),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v2/orchestrators/fee-configs/:id',
    credentials: KEY,
    surface: 'api',
    summary: 'Update a fee config (bps, usdCap, recipient addresses, status)',
    statuses: [200, 400, 404],
    params: IdParams,
    body: UpdateFeeConfigBody,
    responses: { 200: FeeConfigRecord },
    handler: async (ctx, { params, body }) => ({
      status: 200,
      body: await updateFeeConfig(ctx, params.id, body),
    }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v2/orchestrators/fee-configs/:id',
    credentials: KEY,
    surface: 'api',
    summary: 'Disable a fee config (its flow and bearer pair stays taken)',
    statuses: [200, 404],
    params: IdParams,
    query: ClientIdQuery,
    responses: { 200: FeeConfigRecord },
    handler: async (ctx, { params, query }) => ({
      status: 200,
      body: await disableFeeConfig(ctx, params.id, query.clientId),
    }),
  }),
]

const TokenQuery = z.object({ token: z.string().min(1).max(200) })

/** The sandbox's token ids a platform may choose as its destination (ERC-20 on the live networks first). */
function destinationTokens(ctx: Pick<OrchestratorServices, 'currencies'>) {
  return ctx.currencies.all
    .filter((c) => c.type === 'ERC20')
    .map((c) => ({ id: c.id, label: `${c.symbol} on ${c.network}` }))
}

const html = (body: string, status = 200) => ({
  status,
  body,
  contentType: 'text/html; charset=utf-8',
  headers: { 'content-security-policy': ONBOARDING_CSP },
})

/** The intent behind a page's token and its orchestrator's branding, or the page refusing it (404, 410). */
function openIntent(ctx: Pick<OrchestratorServices, 'directory' | 'worlds'>, token: string) {
  const found = findIntent(ctx, token)
  if (!found)
    return {
      refused: html(
        onboardingResultPage('Link not found', 'This onboarding link does not exist.', null),
        404,
      ),
    }
  const branding = orchestratorBranding(found.world)
  const refusal = intentRefusal(found.world, found.intent)
  if (refusal) return { refused: html(onboardingResultPage('Link unavailable', refusal, branding), 410) }
  return { found, branding }
}

/** The hosted onboarding page (public: the token is the credential), the bundled branding assets, the dashboard's read. */
export const orchestratorPageRoutes = [
  defineRoute({
    method: 'GET',
    path: '/__sandbox/orchestrator',
    credentials: ['api-key', 'orchestrator-key'],
    surface: 'control',
    summary:
      "The caller's orchestrator state for the dashboard: linked client IDs, intents, fee configs, branding rows",
    statuses: [200],
    handler: (ctx) => ({ status: 200, body: orchestratorOverview(ctx) }),
  }),
  defineRoute({
    method: 'GET',
    path: '/__sandbox/orchestrator-onboarding',
    credentials: ['public'],
    surface: 'control',
    summary: "The hosted onboarding page of a link intent (the intent's url)",
    statuses: [200, 404, 410],
    query: TokenQuery,
    handler(ctx, { query }) {
      const open = openIntent(ctx, query.token)
      if (open.refused) return open.refused
      return html(onboardingPage(open.found.intent, open.branding, destinationTokens(ctx)))
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/__sandbox/orchestrator-onboarding',
    credentials: ['public'],
    surface: 'control',
    summary:
      'Completes a link intent: the platform confirms its wallet, destination token and screening choice',
    statuses: [200, 400, 404, 410, 429],
    query: TokenQuery,
    rawBody: true,
    async handler(ctx, { query, request }) {
      const open = openIntent(ctx, query.token)
      if (open.refused) return open.refused
      const { found, branding } = open
      const form = new URLSearchParams(request.rawBody ?? '')
      const walletAddress = form.get('walletAddress')?.trim() ?? ''
      const currency = form.get('currency') ?? ''
      const kyt = form.get('kyt') ?? 'none'
      const again = (error: string) =>
        html(onboardingPage(found.intent, branding, destinationTokens(ctx), error), 400)
      if (!/^0x[0-9a-fA-F]{40}$/.test(walletAddress))
        return again('Enter a wallet address (0x and 40 hex digits)')
      if (form.get('confirm') !== 'yes') return again('Confirm the connection to continue')
      if (!['none', 'hypernative', 'merklescience'].includes(kyt)) return again('Choose a screening option')
      try {
        const done = await completeOnboarding(inWorld(ctx, found.world), found, {
          walletAddress,
          currency,
          kyt: kyt as 'none' | 'hypernative' | 'merklescience',
        })
        return html(
          onboardingResultPage(
            'Connected',
            `Your client ID is linked. Payments go to ${done.destination.walletAddress} in ${done.destination.currency}.`,
            branding,
            done.clientId,
          ),
        )
      } catch (error) {
        if (error instanceof IntentUnavailableError)
          return html(onboardingResultPage('Link unavailable', error.message, branding), 410)
        if (error instanceof OnboardingLimitError)
          return html(onboardingResultPage('Too many platforms', error.message, branding), 429)
        if (error instanceof OrchestratorRequestError || (error as { status?: number }).status === 400)
          return again((error as Error).message)
        throw error
      }
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/branding/:brand/:file',
    credentials: ['public'],
    surface: 'control',
    summary: 'Branding assets bundled with the Secure Payment app (logoPath, termsPath, privacyPath)',
    statuses: [200, 404],
    params: z.object({ brand: z.string(), file: z.string() }),
    handler(_ctx, { params }) {
      const path = `/branding/${params.brand}/${params.file}`
      const asset = BRANDING_ASSETS[path]
      if (!asset) throw new NotFoundError(`Cannot GET ${path}`)
      return { status: 200, body: asset.body, contentType: asset.contentType }
    },
  }),
]
