// The harness over HTTP: a tenant bound to a running sandbox server's control API (what
// `request-sandbox/msw/browser` hands out). Only fetch and msw's `bypass` are used, so it bundles for a browser;
// webhooks go to URLs only (a browser has no route the sandbox could call in-process).
import { bypass } from 'msw'
import { waitFor } from '../contract/wait.ts'
import type { JournalFilter } from '../control/journal.ts'
import type {
  FaucetResult,
  HarnessChainInfo,
  HarnessDelivery,
  HarnessTenant,
  HarnessWebhook,
  JournalEntry,
  SandboxEvent,
  ScenarioState,
} from './types.ts'

/** A tenant of a running sandbox server, driven through its control API. */
export type RemoteTenant = HarnessTenant<string>

/** GET /__sandbox/journal's query for a filter. */
export function journalQuery(filter: JournalFilter = {}): string {
  const query = new URLSearchParams()
  if (filter.types?.length) query.set('type', filter.types.join(','))
  if (filter.event) query.set('event', filter.event)
  if (filter.path) query.set('path', filter.path)
  if (filter.scenario) query.set('scenario', filter.scenario)
  if (filter.since) query.set('since', filter.since.toISOString())
  if (filter.limit !== undefined) query.set('limit', String(filter.limit))
  const text = query.toString()
  return text ? `?${text}` : ''
}

/** The control API of a running sandbox (e.g. http://127.0.0.1:8080) for one key. */
export function remoteTenant(sandboxUrl: string, apiKey: string): RemoteTenant {
  const root = sandboxUrl.replace(/\/+$/, '')
  const headers = { 'x-api-key': apiKey }
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(
      bypass(
        new Request(`${root}${path}`, {
          method,
          headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { body: JSON.stringify(body) } : {}),
        }),
      ),
    )
    // read as text first: an answer that is not JSON (a proxy's error page) still names its status
    const text = await response.text()
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 500)}`)
    try {
      return JSON.parse(text) as T
    } catch {
      throw new Error(`${method} ${path}: ${response.status} answered no JSON: ${text.slice(0, 200)}`)
    }
  }
  const events = async (type?: string) =>
    (
      await call<{ events: SandboxEvent[] }>(
        'GET',
        `/__sandbox/events${type ? `?type=${encodeURIComponent(type)}` : ''}`,
      )
    ).events
  const deliveries = () => call<HarnessDelivery[]>('GET', '/__sandbox/webhooks/deliveries')
  return {
    apiKey,
    headers,
    use: (scenario) => call<ScenarioState>('PUT', '/__sandbox/scenario', { scenario }),
    scenario: () => call<ScenarioState>('GET', '/__sandbox/scenario'),
    clock: {
      now: async () => new Date((await call<{ now: string }>('GET', '/__sandbox/clock')).now),
      advance: async (seconds) =>
        new Date((await call<{ now: string }>('POST', '/__sandbox/clock/advance', { seconds })).now),
    },
    faucet: (address, currency, amount) =>
      call<FaucetResult>('POST', '/__sandbox/faucet', { address, currency, amount }),
    chainInfo: () => call<HarnessChainInfo>('GET', '/__sandbox/chain'),
    events,
    waitForEvent: (type, options = {}) =>
      waitFor(async () => (await events(type))[0], {
        timeoutMs: options.timeoutMs ?? 10_000,
        intervalMs: 50,
        what: `event ${type}`,
      }),
    emit: (type, payload) => call<SandboxEvent>('POST', '/__sandbox/events', { type, payload }),
    journal: async (filter) =>
      (await call<{ entries: JournalEntry[] }>('GET', `/__sandbox/journal${journalQuery(filter)}`)).entries,
    webhooks: {
      deliverTo: (url, options = {}) =>
        call<HarnessWebhook>('POST', '/__sandbox/webhooks', {
          url,
          ...(options.secret ? { secret: options.secret } : {}),
        }),
      deliveries,
      waitForDelivery(event, options = {}) {
        const state = options.state ?? 'delivered'
        return waitFor(async () => (await deliveries()).find((d) => d.event === event && d.state === state), {
          timeoutMs: options.timeoutMs ?? 10_000,
          intervalMs: 50,
          what: `a ${state} delivery of ${event}`,
        })
      },
    },
    reset: async () => {
      await call('POST', '/__sandbox/reset')
    },
  }
}
