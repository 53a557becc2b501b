// `request-sandbox/msw`: what an app's test suite imports to answer its Request Network API calls in-process,
// with a fresh isolated tenant per test (its own API key: no global reset, safe with parallel test files).
import { randomBytes } from 'node:crypto'
import { bypass, type RequestHandler } from 'msw'
import type { LiveChain } from './chain/types.ts'
import { waitFor } from './contract/wait.ts'
import type { FaucetResult } from './control/faucet.ts'
import type { JournalEntry, JournalFilter } from './control/journal.ts'
import type { ScenarioState } from './control/scenarios/engine.ts'
import type { EventType, SandboxEvent } from './events/event-bus.ts'
import type { DeliveryRecord, WebhookHandler } from './events/webhook-delivery.ts'
import { createSandbox, type Sandbox, type SandboxOptions } from './sandbox.ts'
import type { World } from './store/world.ts'
import { createHandlers } from './transports/msw.ts'

export type { LiveChain, NetworkName, SandboxAccount } from './chain/types.ts'
export type { NeutralRequest, NeutralResponse } from './contract/neutral.ts'
export { defineScenario, type ScenarioDefinition, type ScenarioSeedApi } from './control/scenarios/define.ts'
export type { SandboxEvent } from './events/event-bus.ts'
export { signWebhook, type WebhookHandler } from './events/webhook-delivery.ts'
export { createSandbox, type Sandbox, type SandboxOptions } from './sandbox.ts'
export { type CreateHandlersOptions, createHandlers } from './transports/msw.ts'

/** Options of createTestSandbox: the sandbox's options plus the base URL the app calls. */
export interface TestSandboxOptions extends SandboxOptions {
  /** where the app sends its API calls; may carry a path prefix (default https://api.request.network) */
  baseUrl?: string
  /** a sandbox you created yourself (close() then leaves it running) */
  sandbox?: Sandbox
}

/** A webhook registered by the harness. */
export interface TestWebhook {
  id: string
  url: string
  secret: string
}

/** One test's own tenant: an API key nobody else uses, and the control API bound to it. */
export interface TestTenant {
  apiKey: string
  /** the headers the app must send (`x-api-key`) */
  headers: Record<string, string>
  /** the first live chain (its default accounts are funded with ETH and every token) */
  chain: LiveChain | null
  /** switches this tenant to a scenario (seeded); its ids are in the result */
  use(scenario: string): Promise<ScenarioState>
  /** the tenant's current scenario, seeded, with its ids */
  scenario(): Promise<ScenarioState>
  /** the tenant's world (tables, clock, events) in its current scenario */
  world(): Promise<World>
  clock: { now(): Promise<Date>; advance(seconds: number): Promise<Date> }
  /** mints a token or sets the ETH balance of an address on the chain */
  faucet(address: string, currency: string, amount: string): Promise<FaucetResult>
  /** the domain events of the tenant's current world, oldest first (optionally of one type) */
  events(type?: EventType): Promise<SandboxEvent[]>
  /** resolves with the first event of `type` (already emitted or to come) */
  waitForEvent(type: EventType, options?: { timeoutMs?: number }): Promise<SandboxEvent>
  /** emits a domain event in the tenant's world, as a resource would: journal and webhooks follow */
  emit(type: EventType, payload: Record<string, unknown>): Promise<SandboxEvent>
  /** API calls, events and webhook delivery attempts, newest first */
  journal(filter?: JournalFilter): JournalEntry[]
  webhooks: {
    /** registers a webhook delivered to an in-process handler (the app's route) or to a URL */
    deliverTo(target: WebhookHandler | string, options?: { secret?: string }): Promise<TestWebhook>
    /** deliveries of this tenant, newest first */
    deliveries(): DeliveryRecord[]
    /** resolves when a delivery of `event` reaches `state` (default delivered) */
    waitForDelivery(
      event: string,
      options?: { state?: DeliveryRecord['state']; timeoutMs?: number },
    ): Promise<DeliveryRecord>
  }
  /** drops this tenant's worlds and journal */
  reset(): void
}

/** A sandbox for an app's test suite: MSW handlers plus per-test tenants. */
export interface TestSandbox {
  sandbox: Sandbox
  /** pass to msw's setupServer (node) */
  handlers: RequestHandler[]
  baseUrl: string
  /** a fresh tenant (own API key), optionally already in a scenario */
  tenant(options?: { scenario?: string; apiKey?: string }): Promise<TestTenant>
  /** stops the sandbox (and its chain) unless it was passed in */
  close(): Promise<void>
}

const poll = <T>(find: () => T | undefined, timeoutMs: number, what: string): Promise<T> =>
  waitFor(find, { timeoutMs, what })

function bindTenant(sandbox: Sandbox, apiKey: string, baseUrl: string, next: () => number): TestTenant {
  const { control } = sandbox
  const shared = sandbox.shared
  const world = () => control.world(apiKey, undefined, baseUrl)
  return {
    apiKey,
    headers: { 'x-api-key': apiKey },
    chain: sandbox.chain,
    use: (scenario) => control.useScenario(apiKey, scenario, baseUrl),
    scenario: () => control.scenario(apiKey, undefined, baseUrl),
    world,
    clock: {
      now: async () => (await world()).clock.now(),
      advance: (seconds) => control.advanceClock(apiKey, seconds),
    },
    faucet: (address, currency, amount) =>
      control.faucet({ address: address as `0x${string}`, currency, amount }),
    async events(type) {
      return (await world()).events.filter((e) => type === undefined || e.type === type)
    },
    async waitForEvent(type, options = {}) {
      const w = await world()
      return poll(() => w.events.find((e) => e.type === type), options.timeoutMs ?? 10_000, `event ${type}`)
    },
    emit: (type, payload) => control.emit(apiKey, type, payload),
    journal: (filter) => control.journal(apiKey, filter),
    webhooks: {
      async deliverTo(target, options = {}) {
        const url =
          typeof target === 'string' ? target : `https://webhooks.sandbox.invalid/${apiKey}/${next()}`
        if (typeof target !== 'string') shared.webhooks.route(url, target)
        const now = (await world()).clock.now()
        const record = shared.webhooks.registry.add(apiKey, url, now, options.secret)
        return { id: record.id, url, secret: record.secret }
      },
      deliveries: () => control.deliveries(apiKey),
      waitForDelivery(event, options = {}) {
        const state = options.state ?? 'delivered'
        return poll(
          () => control.deliveries(apiKey).find((d) => d.event === event && d.state === state),
          options.timeoutMs ?? 10_000,
          `a ${state} delivery of ${event}`,
        )
      },
    },
    reset: () => control.reset(apiKey),
  }
}

/**
 * A sandbox for app tests. Webhook retries default to 100, 250, 500 ms here (the service waits 1, 5, 15 s)
 * so a test of a failing receiver stays fast; pass `webhooks.retryDelaysMs` to change it. Webhooks delivered
 * to a URL bypass MSW (they are meant for a real server, such as the app's dev server).
 */
export async function createTestSandbox(options: TestSandboxOptions = {}): Promise<TestSandbox> {
  const { baseUrl = 'https://api.request.network', sandbox: given, ...sandboxOptions } = options
  const sandbox =
    given ??
    (await createSandbox({
      ...sandboxOptions,
      // Deliveries to URLs go to the network, around the app's own MSW handlers (and onUnhandledRequest).
      webhooks: {
        retryDelaysMs: [100, 250, 500],
        fetch: (request) => fetch(bypass(request)),
        ...sandboxOptions.webhooks,
      },
    }))
  let counter = 0
  return {
    sandbox,
    handlers: createHandlers(sandbox, { baseUrl }),
    baseUrl,
    async tenant(tenantOptions = {}) {
      const apiKey = tenantOptions.apiKey ?? `rn_test_${randomBytes(12).toString('hex')}`
      const tenant = bindTenant(sandbox, apiKey, baseUrl, () => ++counter)
      if (tenantOptions.scenario) await tenant.use(tenantOptions.scenario)
      return tenant
    },
    async close() {
      if (!given) await sandbox.close()
    },
  }
}
