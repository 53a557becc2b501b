// `request-sandbox/msw`: what an app's test suite imports to answer its Request Network API calls in-process,
// with a fresh isolated tenant per test (its own API key: no global reset, safe with parallel test files).
import { randomBytes } from 'node:crypto'
import { bypass, type RequestHandler } from 'msw'
import { bindTenant, type TestTenant } from './harness/in-process.ts'
import { createSandbox, type Sandbox, type SandboxOptions } from './sandbox.ts'
import { createHandlers } from './transports/msw.ts'

export type { LiveChain, NetworkName, SandboxAccount } from './chain/types.ts'
export type { EventType, SandboxEvent } from './contract/events.ts'
export type { NeutralRequest, NeutralResponse } from './contract/neutral.ts'
export { type WaitOptions, waitFor } from './contract/wait.ts'
export { defineScenario, type ScenarioDefinition, type ScenarioSeedApi } from './control/scenarios/define.ts'
export type { TestTenant } from './harness/in-process.ts'
export type {
  HarnessChain,
  HarnessChainInfo,
  HarnessDelivery,
  HarnessTenant,
  HarnessWebhook,
  HarnessWebhook as TestWebhook,
} from './harness/types.ts'
export { createSandbox, type Sandbox, type SandboxOptions } from './sandbox.ts'
export { type CreateHandlersOptions, createHandlers } from './transports/msw.ts'
export { signWebhook, type WebhookHandler } from './webhooks/index.ts'

/** Options of createTestSandbox: the sandbox's options plus the base URL the app calls. */
export interface TestSandboxOptions extends SandboxOptions {
  /** where the app sends its API calls; may carry a path prefix (default https://api.request.network) */
  baseUrl?: string
  /** a sandbox you created yourself (close() then leaves it running) */
  sandbox?: Sandbox
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

/**
 * A sandbox for app tests. Webhook retries default to 100, 250, 500 ms here (the service waits 1, 5, 15 s)
 * so a test of a failing receiver stays fast; pass `webhooks.retryDelaysMs` to change it. Webhooks delivered
 * to a URL bypass MSW (they are meant for a real server, such as the app's dev server).
 * `reuseChains` defaults to true: `close()` keeps the chain for the process's next test sandbox, which gets it back
 * as it started (a sandbox per test in `beforeEach` costs milliseconds after the first).
 */
export async function createTestSandbox(options: TestSandboxOptions = {}): Promise<TestSandbox> {
  const { baseUrl = 'https://api.request.network', sandbox: given, ...sandboxOptions } = options
  const sandbox =
    given ??
    (await createSandbox({
      reuseChains: true,
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
