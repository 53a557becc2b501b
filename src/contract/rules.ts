// The behaviour knobs of a world. A scenario sets them when its world is created; the dispatcher's middleware
// honours the generic ones (latency, failure status, rate limit) on every API call, the resources read the
// outcomes that concern them. Add a field here (documented) when a resource grows a new outcome.
import { z } from 'zod'

/** Rules of a world, validated the same way for built-in, TypeScript and JSON scenarios. */
export const WorldRulesSchema = z
  .object({
    /** added to every API call of the world, in ms (a slow service); `x-sandbox-delay` overrides it per call */
    latencyMs: z.number().int().min(0).max(60_000).optional(),
    /** every API call answers this 4xx/5xx status with the service's body for it, without running */
    failureStatus: z.number().int().min(400).max(599).optional(),
    /** at most `limit` API calls per `windowSeconds` of the tenant clock; the others get 429 + Retry-After */
    rateLimit: z
      .object({ limit: z.number().int().min(0), windowSeconds: z.number().int().min(1).max(86_400) })
      .strict()
      .optional(),
    /** what the scenario's payer wallet holds on chain when the seed creates it: currency id -> human amount */
    payerBalances: z.record(z.string(), z.string().regex(/^\d+(\.\d+)?$/)).optional(),
    /** what the KYC review decides for a submitted KYC (payers resource; default approved; pending = never decides) */
    kycOutcome: z.enum(['approved', 'rejected', 'pending', 'retry_required']).optional(),
    /** status bank payment details reach after review (payment-details resource, `payment_detail.updated`) */
    bankDetailOutcome: z.enum(['approved', 'failed', 'pending']).optional(),
    /** how crypto-to-fiat payments end: `fiat_sent` (then payment.confirmed), `failed` or `bounced` */
    offrampOutcome: z.enum(['fiat_sent', 'failed', 'bounced']).default('fiat_sent'),
    /** seconds of tenant clock between two off-ramp sub-statuses */
    offrampStepSeconds: z.number().int().min(0).max(86_400).default(5),
    /**
     * A sandbox addition, off by default: cross-chain settlement also announces its steps as `payment.processing`
     * (`subStatus` `crosschain_initiated`, `source_funds_received`, `destination_payment_sent`) and its
     * `payment.failed` names the intent, both networks and the reason. The service documents `payment.processing`
     * for crypto-to-fiat only (api-features/webhooks-events.mdx), so a world without this rule sends none of them.
     */
    crosschainProgressEvents: z.boolean().optional(),
  })
  .strict()

/** Rules of a world, defaults filled in (see WorldRulesSchema for what each field does). */
export type WorldRules = z.infer<typeof WorldRulesSchema>

/** Rules as a scenario writes them: every field optional, the others take their defaults. */
export type WorldRulesInput = z.input<typeof WorldRulesSchema>

/** The rules of a world whose scenario sets `rules` (defaults for the rest). */
export function worldRules(rules: WorldRulesInput = {}): WorldRules {
  return WorldRulesSchema.parse(rules)
}
