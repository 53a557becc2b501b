// Webhooks are managed with the tenant's x-api-key (the account: every webhook of the key, each receiving every
// event) or, as the Auth API does (api-reference/webhooks.mdx), with `x-client-id` on /v1/webhook: a client ID
// sees and changes only the webhooks it registered, which receive only the events of its own requests and links;
// their secret is shown once, at creation, and never listed. Webhooks serve all the key's scenario worlds.
// http:// URLs are accepted so local receivers work. Test sends carry placeholder ids.

import type { CallScope } from '../contract/route-context.ts'
import { BadRequestError, IssueListError, type ServiceIssue } from '../contract/sandbox-error.ts'
import type { IdGenerator } from '../store/ids.ts'
import { NoActiveWebhooksError, WebhookExistsError, WebhookNotFoundError } from './errors.ts'
import type { WebhookPort } from './port.ts'
import { WEBHOOK_EVENT_TYPES, type WebhookEventType, type WebhookRecord } from './schema.ts'
import { testPayload } from './test-payloads.ts'

/** What the public webhook routes use: the same services a resource gets (`ids`, `webhooks`) and the call. */
export type WebhookServices = { ids: IdGenerator; webhooks: WebhookPort }
type Ctx = WebhookServices & CallScope

/** zod 3's name of a value's type, as the service's issue messages write it. */
function typeName(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number' && Number.isNaN(value)) return 'nan'
  return typeof value
}

/** The zod 3 issue for a field that must be a string (the service validates with zod 3). */
function stringIssue(value: unknown, field: string): ServiceIssue | null {
  if (typeof value === 'string') return null
  const received = typeName(value)
  return {
    code: 'invalid_type',
    expected: 'string',
    received,
    path: [field],
    message: received === 'undefined' ? 'Required' : `Expected string, received ${received}`,
  }
}

function objectBody(body: unknown): Record<string, unknown> {
  if (body !== null && typeof body === 'object' && !Array.isArray(body))
    return body as Record<string, unknown>
  const received = typeName(body)
  throw new IssueListError([
    {
      code: 'invalid_type',
      expected: 'object',
      received,
      path: [],
      message: `Expected object, received ${received}`,
    },
  ])
}

/** Reads `{url}` as the service's zod pipe does: 400 with the issue list when it is not an http(s) URL. */
export function parseWebhookUrl(body: unknown): string {
  const { url } = objectBody(body)
  const issue = stringIssue(url, 'url')
  if (issue) throw new IssueListError([issue])
  let parsed: URL | null = null
  try {
    parsed = new URL(url as string)
  } catch {}
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new IssueListError([
      { validation: 'url', code: 'invalid_string', message: 'Invalid url', path: ['url'] },
    ])
  }
  // fetch refuses URLs with credentials: such a webhook could be registered but never delivered
  if (parsed.username || parsed.password) {
    throw new IssueListError([
      {
        validation: 'url',
        code: 'invalid_string',
        message: 'Invalid url: credentials (user:password@) are not allowed in a webhook URL',
        path: ['url'],
      },
    ])
  }
  return url as string
}

/** Reads `{eventType}`: 400 `invalid_enum_value` with the options, exactly as the service's example. */
export function parseTestEventType(body: unknown): WebhookEventType {
  const { eventType } = objectBody(body)
  const issue = stringIssue(eventType, 'eventType')
  if (issue) throw new IssueListError([issue])
  if (!(WEBHOOK_EVENT_TYPES as readonly string[]).includes(eventType as string)) {
    const expected = WEBHOOK_EVENT_TYPES.map((t) => `'${t}'`).join(' | ')
    throw new IssueListError([
      {
        code: 'invalid_enum_value',
        options: [...WEBHOOK_EVENT_TYPES],
        path: ['eventType'],
        message: `Invalid enum value. Expected ${expected}, received '${eventType}'`,
      },
    ])
  }
  return eventType as WebhookEventType
}

/** The client ID a management call acts for (`x-client-id`), or null for the account (API key, portal cookie). */
export function callerClientId(ctx: Ctx): string | null {
  return ctx.caller?.via === 'client-id' ? (ctx.caller.clientId?.clientId ?? null) : null
}

/** The webhooks the caller manages: a client ID's own, or every webhook of the key. */
export function visibleWebhooks(ctx: Ctx): WebhookRecord[] {
  const clientId = callerClientId(ctx)
  const { registry } = ctx.webhooks
  return clientId ? registry.ofClient(ctx.tenant!, clientId) : registry.list(ctx.tenant!)
}

/** What GET lists: a client ID never sees a secret again (shown once, at creation); the account's list keeps it. */
export function listedWebhooks(ctx: Ctx) {
  const hooks = visibleWebhooks(ctx)
  if (!callerClientId(ctx)) return hooks
  return hooks.map(({ secret: _secret, ...rest }) => rest)
}

/**
 * What a webhook registered outside POST /v2/webhook (control API, world files) must pass, as that route does: the key
 * has fewer than --max-webhooks of them and the operator allows the destination (--webhook-hosts).
 */
export async function checkNewWebhook(webhooks: WebhookPort, tenant: string, url: string): Promise<void> {
  const problem = await webhooks.destinationProblem(url)
  if (problem) throw new BadRequestError(`url: destination not allowed: ${problem}`)
  refuseFullKey(webhooks, tenant)
}

/** 400 when the key has --max-webhooks webhooks already. */
function refuseFullKey(webhooks: Pick<WebhookPort, 'registry' | 'maxPerKey'>, tenant: string): void {
  if (webhooks.registry.list(tenant).length >= webhooks.maxPerKey)
    throw new BadRequestError(
      `A key may register at most ${webhooks.maxPerKey} webhooks (--max-webhooks): delete one first`,
    )
}

/**
 * POST /v2/webhook: registers a URL for the caller (its client ID, or the key); 400 when it has it already, when the key
 * has --max-webhooks of them, or when the operator does not allow the destination (--webhook-hosts; refused here so
 * that the delivery log never tells what answers inside the network).
 */
export async function createWebhook(ctx: Ctx, url: string): Promise<WebhookRecord> {
  const { registry } = ctx.webhooks
  const tenant = ctx.tenant!
  if (visibleWebhooks(ctx).some((w) => w.url === url)) throw new WebhookExistsError()
  refuseFullKey(ctx.webhooks, tenant)
  const problem = await ctx.webhooks.destinationProblem(url)
  if (problem)
    throw new IssueListError([
      {
        validation: 'url',
        code: 'invalid_string',
        message: `Invalid url: destination not allowed: ${problem}`,
        path: ['url'],
      },
    ])
  // the check awaited: the same URL, or the key's last allowed webhooks, may have been registered meanwhile
  if (visibleWebhooks(ctx).some((w) => w.url === url)) throw new WebhookExistsError()
  refuseFullKey(ctx.webhooks, tenant)
  return registry.add(tenant, url, ctx.world.clock.now(), undefined, callerClientId(ctx))
}

function visibleWebhook(ctx: Ctx, id: string): WebhookRecord {
  const record = visibleWebhooks(ctx).find((w) => w.id === id)
  if (!record) throw new WebhookNotFoundError()
  return record
}

/** PUT /v2/webhook/{id}: enables a disabled webhook, disables an enabled one. */
export function toggleWebhook(ctx: Ctx, id: string): WebhookRecord {
  const record = visibleWebhook(ctx, id)
  return ctx.webhooks.registry.setActive(ctx.tenant!, record.id, !record.isActive) ?? record
}

/** DELETE /v2/webhook/{id}. */
export function deleteWebhook(ctx: Ctx, id: string): void {
  ctx.webhooks.registry.delete(ctx.tenant!, visibleWebhook(ctx, id).id)
}

/** POST /v2/webhook/test: a test event to every active webhook of the caller; 404 when there is none. */
export function sendTestWebhook(ctx: Ctx, type: WebhookEventType): { id: string }[] {
  const delivery = ctx.webhooks
  const tenant = ctx.tenant!
  const clientId = callerClientId(ctx)
  if (!delivery.hasTargets(tenant, clientId)) throw new NoActiveWebhooksError()
  const world = ctx.world
  return delivery.sendTest(tenant, world.scenario, testPayload(type, ctx.ids, world.clock.now()), clientId)
}
