// The 17 `/v2/orchestrators/*` operations (x-orchestrator-key). The pages orchestrators bring are in page-routes.ts.
import { z } from 'zod'
import { routesUsing } from '../../contract/route.ts'
import type { Services } from '../services.ts'
import { createBranding, deleteBranding, getBranding, updateBranding } from './branding.ts'
import { createFeeConfig, disableFeeConfig, listFeeConfigs, updateFeeConfig } from './fees.ts'
import { createIntent, linkClientId, listLinks, onboardingUrl, unlinkClientId } from './links.ts'
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
