// Orchestrator webhooks (orchestrators/webhooks.mdx): registered in the sandbox's webhook registry under the
// orchestrator's key, so delivery, signing (`x-request-network-signature`), retries and test sends are the ones
// every other webhook gets. Events reach them from the orchestrator's world (`client_id.linked`,
// `kyt.screening.completed`). The secret is answered once, on registration.
import type { Uses } from '../services.ts'
import { OrchestratorConflictError, OrchestratorNotFoundError, OrchestratorRequestError } from './errors.ts'
import { orchestratorIdOf } from './links.ts'

type Ctx = Uses<'ids' | 'webhooks'>

const view = (w: { id: string; url: string; isActive: boolean; createdAt: string }) => ({
  id: w.id,
  url: w.url,
  isActive: w.isActive,
  createdAt: w.createdAt,
})

const duplicate = () =>
  new OrchestratorConflictError('A webhook with this URL is already registered: reactivate it instead')

/**
 * `POST /v2/orchestrators/webhooks`: a URL already registered (active or not) is refused, and so are a key's
 * webhook past --max-webhooks and a destination the operator does not allow (--webhook-hosts), as on `/v2/webhook`.
 */
export async function registerWebhook(ctx: Ctx, url: string) {
  const { registry } = ctx.webhooks
  if (registry.list(ctx.tenant!).some((w) => w.url === url)) throw duplicate()
  if (registry.list(ctx.tenant!).length >= ctx.webhooks.maxPerKey)
    throw new OrchestratorRequestError(
      `A key may register at most ${ctx.webhooks.maxPerKey} webhooks (--max-webhooks): delete one first`,
    )
  const problem = await ctx.webhooks.destinationProblem(url)
  if (problem) throw new OrchestratorRequestError(`url destination not allowed: ${problem}`)
  // the check awaited: the same URL may have been registered meanwhile
  if (registry.list(ctx.tenant!).some((w) => w.url === url)) throw duplicate()
  const record = registry.add(ctx.tenant!, url, ctx.world.clock.now())
  return { webhook: view(record), secret: record.secret }
}

/** `GET /v2/orchestrators/webhooks`: every endpoint, inactive ones included, without secrets. */
export function listWebhooks(ctx: Ctx) {
  return { webhooks: ctx.webhooks.registry.list(ctx.tenant!).map(view) }
}

/** `PATCH` (reactivate) and `DELETE` (deactivate) of one endpoint; the URL and secret stay. */
export function setWebhookActive(ctx: Ctx, id: string, isActive: boolean) {
  const record = ctx.webhooks.registry.setActive(ctx.tenant!, id, isActive)
  if (!record) throw new OrchestratorNotFoundError('Webhook not found')
  return { webhook: view(record) }
}

/** `POST /v2/orchestrators/webhooks/test`: a signed placeholder event to every active endpoint. */
export function sendTestEvent(ctx: Ctx, eventType: 'client_id.linked' | 'kyt.screening.completed') {
  const now = ctx.world.clock.now()
  const timestamp = now.toISOString()
  const wallet = '0x2e2e5c79f571ef1658d4c2d3684a1fe97dd30570'
  const payload =
    eventType === 'client_id.linked'
      ? {
          event: eventType,
          clientId: `cli_test${ctx.ids.hex(4)}`,
          orchestratorId: orchestratorIdOf(ctx.tenant!),
          linkId: ctx.ids.ulid(now.getTime()),
          intentId: ctx.ids.ulid(now.getTime()),
          externalId: 'test_external_id',
          destinationId: `0x742d35Cc6634C0532925a3b844Bc454e4438f44e@eip155:11155111#00000000:0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238`,
          destinationWalletAddress: '0x742d35cc6634c0532925a3b844bc454e4438f44e',
          chain: 'sepolia',
          currency: 'USDC',
          timestamp,
        }
      : {
          event: eventType,
          paymentToken: ctx.ids.ulid(now.getTime()),
          walletAddress: wallet,
          eoaAddress: wallet,
          smartAccountAddress: null,
          status: 'approved',
          provider: 'hypernative',
          policyId: null,
          timestamp,
        }
  const sent = ctx.webhooks.sendTest(ctx.tenant!, ctx.world.scenario, payload)
  return { sent: sent.length, failed: 0 }
}
