// Shapes of /v2/orchestrators/* (RequestNetwork/mintlify-docs orchestrators/*.mdx, 2026-Q2; read 2026-11-26):
// bodies, queries and answers as the pages show them, and the records the sandbox stores.
import { z } from 'zod'
import { Address } from '../../contract/primitives.ts'

/** The documented form of an orchestrator key: `orc_` and a secret (the sandbox takes 1-200 url-safe characters). */
export const ORCHESTRATOR_KEY = /^orc_[A-Za-z0-9_-]{1,200}$/

/** The documented form of a public client ID. */
const PublicClientId = z.string().regex(/^cli_[A-Za-z0-9_-]+$/, 'clientId must be a cli_* client ID')

/** `POST /v2/orchestrators/client-ids`. */
export const LinkClientIdBody = z.object({ clientId: PublicClientId })

/** `?page=&limit=` of the client-ID list (page from 1, limit 1-100, default 20). */
export const PageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
})

export const ClientIdParams = z.object({ clientId: z.string().min(1) })
export const IdParams = z.object({ id: z.string().min(1) })

/** A link as the pages show it. */
export const LinkView = z.object({ clientId: z.string(), status: z.literal('active') })

/** 201 of a direct link. */
export const LinkedResponse = z.object({ link: LinkView, alreadyLinked: z.boolean() })

/** 200 of the list. */
export const LinkListResponse = z.object({
  links: z.array(LinkView),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
})

/** A KYT provider of a plan (no `priority`: the array order assigns it). */
const KytProvider = z.strictObject({
  provider: z.enum(['hypernative', 'merklescience']),
  policyId: z.uuid({ message: 'policyId must be a UUID' }).optional(),
})

/** An orchestrator-controlled screening plan: one or two unique providers, the first primary. */
export const KytPlan = z.strictObject({
  providers: z
    .array(KytProvider)
    .min(1, { message: 'kyt.providers must include one or two providers' })
    .max(2, { message: 'kyt.providers must include one or two providers' })
    .refine((list) => new Set(list.map((p) => p.provider)).size === list.length, {
      message: 'kyt.providers must be unique',
    }),
})
export type KytPlan = z.infer<typeof KytPlan>

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

/** One allowed origin of an intent: HTTPS with no path, query or fragment; HTTP only for local development hosts. */
const IntentDomain = z.string().transform((value, ctx) => {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    ctx.addIssue({ code: 'custom', message: `${value} is not a valid origin` })
    return z.NEVER
  }
  if (value.replace(/\/$/, '').toLowerCase() !== url.origin.toLowerCase()) {
    ctx.addIssue({ code: 'custom', message: `${value} must be an origin with no path, query, or fragment` })
    return z.NEVER
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname))) {
    ctx.addIssue({
      code: 'custom',
      message: `${value} must use HTTPS (HTTP is allowed only for localhost, 127.0.0.1, or [::1])`,
    })
    return z.NEVER
  }
  return url.origin
})

/** `POST /v2/orchestrators/client-id-link-intents`. */
export const LinkIntentBody = z.object({
  clientIdName: z.string().trim().min(1, { message: 'clientIdName is required' }).max(100),
  domains: z
    .array(IntentDomain)
    .max(10, { message: 'domains accepts at most 10 origins' })
    .refine((list) => new Set(list).size === list.length, { message: 'domains must be unique' })
    .optional(),
  externalId: z.string().min(1).max(255).optional(),
  kyt: KytPlan.optional(),
})
export type LinkIntentBody = z.infer<typeof LinkIntentBody>

/** A link intent, stored in the orchestrator's world. */
export const LinkIntentRecord = z.object({
  id: z.string(),
  /** the onboarding page's token (single use) */
  token: z.string(),
  clientIdName: z.string(),
  domains: z.array(z.string()),
  externalId: z.string().nullable(),
  kyt: KytPlan.nullable(),
  used: z.boolean(),
  createdAt: z.string(),
  expiresAt: z.string(),
  /** the client ID the completed onboarding created */
  clientId: z.string().nullable(),
})
export type LinkIntentRecord = z.infer<typeof LinkIntentRecord>

/** 201 of a link intent. */
export const LinkIntentResponse = z.object({
  url: z.string().url(),
  intent: z.object({
    id: z.string(),
    clientIdName: z.string(),
    externalId: z.string().optional(),
    used: z.boolean(),
    expiresAt: z.string(),
  }),
})

/** A link as the orchestrator's world keeps it. */
export const LinkRecord = z.object({
  clientId: z.string(),
  linkId: z.string(),
  status: z.enum(['active', 'unlinked']),
  /** the intent it came from (hosted onboarding), null for a direct link */
  intentId: z.string().nullable(),
  /** the orchestrator's screening plan (onboarding with `kyt`), or the platform's choice */
  kyt: KytPlan.nullable(),
  platformKyt: z.enum(['hypernative', 'merklescience', 'none']).nullable(),
  createdAt: z.string(),
  unlinkedAt: z.string().nullable(),
})
export type LinkRecord = z.infer<typeof LinkRecord>

/** The link as the platform's world keeps it, beside its client ID: one record ever per client ID. */
export const ClientLinkRecord = z.object({
  clientId: z.string(),
  orchestratorKey: z.string(),
  orchestratorId: z.string(),
  linkId: z.string(),
  status: z.enum(['active', 'unlinked']),
})
export type ClientLinkRecord = z.infer<typeof ClientLinkRecord>

const UsdCap = z
  .string()
  .regex(/^\d+(\.\d{1,2})?$/, { message: 'usdCap must be a decimal USD amount as a string' })
  .refine((v) => Number(v) > 0, { message: 'usdCap must be greater than 0' })
const Bps = z
  .number({ error: 'bps must be an integer from 0 to 10000' })
  .int({ message: 'bps must be an integer from 0 to 10000' })
  .min(0, { message: 'bps must be an integer from 0 to 10000' })
  .max(10000, { message: 'bps must be an integer from 0 to 10000' })
const TronAddress = z
  .string()
  .regex(/^T[1-9A-HJ-NP-Za-km-z]{33}$/, { message: 'tronRecipientAddress must be a Tron address' })
export const FeeBearer = z.enum(['payer', 'recipient'])
export const FeeFlow = z.enum(['incoming', 'outgoing'])
const FeeStatus = z.enum(['active', 'disabled'])

/** `POST /v2/orchestrators/fee-configs`. */
export const CreateFeeConfigBody = z
  .object({
    bps: Bps,
    usdCap: UsdCap.optional(),
    feeBearer: FeeBearer,
    flow: FeeFlow,
    evmRecipientAddress: Address.optional(),
    tronRecipientAddress: TronAddress.optional(),
    status: FeeStatus.optional(),
    clientId: PublicClientId.optional(),
  })
  .refine((b) => b.evmRecipientAddress !== undefined || b.tronRecipientAddress !== undefined, {
    message: 'At least one of evmRecipientAddress or tronRecipientAddress is required',
    path: ['evmRecipientAddress'],
  })
export type CreateFeeConfigBody = z.infer<typeof CreateFeeConfigBody>

/** `PATCH /v2/orchestrators/fee-configs/:id`: the mutable fields; `flow` and `feeBearer` are refused by the model. */
export const UpdateFeeConfigBody = z.object({
  bps: Bps.optional(),
  usdCap: UsdCap.nullable().optional(),
  evmRecipientAddress: Address.nullable().optional(),
  tronRecipientAddress: TronAddress.nullable().optional(),
  status: FeeStatus.optional(),
  clientId: PublicClientId.optional(),
  feeBearer: z.unknown().optional(),
  flow: z.unknown().optional(),
  feeType: z.unknown().optional(),
})
export type UpdateFeeConfigBody = z.infer<typeof UpdateFeeConfigBody>

/** `?clientId=` of the fee-config list and delete, and of branding's GET and DELETE. */
export const ClientIdQuery = z.object({ clientId: PublicClientId.optional() })

/** A fee config, as stored and answered. */
export const FeeConfigRecord = z.object({
  id: z.string(),
  orchestratorId: z.string(),
  clientId: z.string().nullable(),
  feeType: z.literal('orchestrator_fee'),
  flow: FeeFlow,
  feeBearer: FeeBearer,
  bps: z.number().int(),
  usdCap: z.string().nullable(),
  evmRecipientAddress: z.string().nullable(),
  tronRecipientAddress: z.string().nullable(),
  status: FeeStatus,
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type FeeConfigRecord = z.infer<typeof FeeConfigRecord>

const Color = z
  .string()
  .regex(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, { message: 'must be a 3- or 6-digit hex color' })

/** A branding asset path: relative under /branding/, no query, hash or traversal, the given extensions. */
function brandingPath(name: string, extensions: string[]) {
  return z.string().superRefine((value, ctx) => {
    const fail = (message: string) => ctx.addIssue({ code: 'custom', message: `${name} ${message}` })
    if (!value.startsWith('/branding/') || value.startsWith('//')) return fail('must start with /branding/')
    if (value.includes('?') || value.includes('#')) return fail('must not contain a query or hash')
    if (value.split('/').some((part) => part === '..') || value.includes('\\'))
      return fail('must not contain path traversal')
    const lower = value.toLowerCase()
    if (!extensions.some((ext) => lower.endsWith(ext))) fail(`must end in ${extensions.join(', ')}`)
  })
}

const brandingFields = {
  pageBackgroundColor: Color.optional(),
  cardBackgroundColor: Color.optional(),
  primaryActionColor: Color.optional(),
  primaryTextColor: Color.optional(),
  secondaryTextColor: Color.optional(),
  logoPath: brandingPath('logoPath', ['.png', '.jpg', '.jpeg', '.webp', '.avif']).optional(),
  termsPath: brandingPath('termsPath', ['.html']).optional(),
  privacyPath: brandingPath('privacyPath', ['.html']).optional(),
  displayRequestBranding: z.boolean().optional(),
}

/** `POST` and `PATCH /v2/orchestrators/branding`: `clientId` targets a linked client ID; PATCH cannot clear a field. */
export const BrandingBody = z.object({ clientId: PublicClientId.optional(), ...brandingFields })
export type BrandingBody = z.infer<typeof BrandingBody>

/** A branding row (the shape the secure-payments document shows under `branding`). */
export const BrandingRecord = z.object({
  id: z.string(),
  orchestratorId: z.string(),
  /** the client ID of a per-client row (absent on the orchestrator's own row) */
  clientIdId: z.string().optional(),
  logoPath: z.string().optional(),
  pageBackgroundColor: z.string().optional(),
  cardBackgroundColor: z.string().optional(),
  primaryActionColor: z.string().optional(),
  primaryTextColor: z.string().optional(),
  secondaryTextColor: z.string().optional(),
  termsPath: z.string().optional(),
  privacyPath: z.string().optional(),
  displayRequestBranding: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type BrandingRecord = z.infer<typeof BrandingRecord>

/** `POST /v2/orchestrators/webhooks`. */
export const WebhookBody = z.object({
  url: z
    .string()
    .url({ message: 'url must be a valid URL' })
    .refine((u) => /^https?:\/\//i.test(u), { message: 'url must use http or https' }),
})

/** `POST /v2/orchestrators/webhooks/test`. */
export const WebhookTestBody = z.object({
  eventType: z.enum(['client_id.linked', 'kyt.screening.completed']).default('client_id.linked'),
})

/** A webhook as the orchestrator endpoints answer it (never with its secret but on creation). */
export const OrchestratorWebhook = z.object({
  id: z.string(),
  url: z.string(),
  isActive: z.boolean(),
  createdAt: z.string(),
})
