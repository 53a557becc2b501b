// The harness in-process: a tenant bound to a sandbox object's control API (what `createTestSandbox` hands out).
// Webhooks may go to an in-process handler (the app's route) as well as to a URL.
import type { LiveChain } from '../chain/index.ts'
import { waitFor } from '../contract/wait.ts'
import type { Sandbox } from '../sandbox.ts'
import { deliveryView, type WebhookHandler } from '../webhooks/index.ts'
import type { HarnessTenant } from './types.ts'

/** A tenant of the in-process harness: the common harness plus the live chain object itself. */
export interface TestTenant extends HarnessTenant<WebhookHandler | string> {
  /** the first live chain (its default accounts are funded with ETH and every token); null without a chain */
  chain: LiveChain | null
}

/** Binds the control API of `sandbox` to `apiKey`; `nextHook` numbers in-process webhook routes. */
export function bindTenant(
  sandbox: Sandbox,
  apiKey: string,
  baseUrl: string,
  nextHook: () => number,
): TestTenant {
  const { control } = sandbox
  const deliveries = async () => control.deliveries(apiKey).map(deliveryView)
  return {
    apiKey,
    headers: { 'x-api-key': apiKey },
    chain: sandbox.chain,
    use: (scenario) => control.useScenario(apiKey, scenario, baseUrl),
    scenario: () => control.scenario(apiKey, undefined, baseUrl),
    clock: {
      now: async () => (await control.world(apiKey, undefined, baseUrl)).clock.now(),
      advance: (seconds) => control.advanceClock(apiKey, seconds),
    },
    faucet: (address, currency, amount) =>
      control.faucet({ address: address as `0x${string}`, currency, amount }),
    chainInfo: async () => control.chainInfo(),
    events: (type) => control.events(apiKey, type),
    async waitForEvent(type, options = {}) {
      const world = await control.world(apiKey, undefined, baseUrl)
      return waitFor(() => world.events.find((e) => e.type === type), {
        timeoutMs: options.timeoutMs ?? 10_000,
        what: `event ${type}`,
      })
    },
    emit: (type, payload) => control.emit(apiKey, type, payload),
    journal: async (filter) => control.journal(apiKey, filter),
    webhooks: {
      async deliverTo(target, options = {}) {
        const url =
          typeof target === 'string' ? target : `https://webhooks.sandbox.invalid/${apiKey}/${nextHook()}`
        if (typeof target !== 'string') sandbox.shared.webhooks.route(url, target)
        return control.registerWebhook(apiKey, url, options.secret)
      },
      deliveries,
      waitForDelivery(event, options = {}) {
        const state = options.state ?? 'delivered'
        return waitFor(async () => (await deliveries()).find((d) => d.event === event && d.state === state), {
          timeoutMs: options.timeoutMs ?? 10_000,
          what: `a ${state} delivery of ${event}`,
        })
      },
    },
    reset: async () => control.reset(apiKey),
  }
}
