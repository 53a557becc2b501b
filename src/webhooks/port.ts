import type { WebhookRegistry } from './registry.ts'

/** What the webhook resource needs from delivery (which the control plane owns): its registry and test sends. */
export interface WebhookPort {
  readonly registry: WebhookRegistry
  /** whether the key (or only `clientId`'s webhooks, when given) has an active target */
  hasTargets(tenant: string, clientId?: string | null): boolean
  /** sends `payload` to every active target of the key (of `clientId` only, when given); one delivery id each */
  sendTest(
    tenant: string,
    scenario: string,
    payload: Record<string, unknown>,
    clientId?: string | null,
  ): { id: string }[]
  /** why webhooks may not go to `url` (the operator's --webhook-hosts, checked on the resolved addresses), or null */
  destinationProblem(url: string): Promise<string | null>
  /** webhooks one key may register (--max-webhooks) */
  readonly maxPerKey: number
}
