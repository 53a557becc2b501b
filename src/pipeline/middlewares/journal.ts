// The sandbox's own per-call behaviour, as dispatcher middlewares (outermost first): the journal, scenario
// selection (and seeding), and faults. The control API (/__sandbox/*) is never faulted nor journaled, so a
// key stuck in `service-unavailable` can always switch back.
import type { CallInfo, Middleware } from '../../contract/middleware.ts'
import type { NeutralResponse } from '../../contract/neutral.ts'
import { publicBaseUrl } from '../../contract/public-url.ts'
import { type NewJournalEntry, RawBody } from '../../control/journal.ts'
import type { SandboxState } from '../../control/sandbox-state.ts'
import { renderError } from '../../errors/render-error.ts'
import { isoOf } from '../../store/clock.ts'
import { faultResponse, RateWindows, requestedFaults, sleep } from './faults.ts'

/** Whether a call is to the sandbox's control API (the route declares its surface). */
export function isControlRoute(call: CallInfo): boolean {
  return call.route.surface === 'control'
}

async function guarded(
  log: SandboxState['log'],
  run: () => Promise<NeutralResponse>,
): Promise<NeutralResponse> {
  try {
    return await run()
  } catch (error) {
    return renderError(error, log)
  }
}

// most calls have no query: their entries share one empty object instead of keeping one each
const NO_QUERY: Record<string, string> = Object.freeze({}) as Record<string, string>
function hasKeys(query: Record<string, string>): boolean {
  for (const _ in query) return true
  return false
}

/** Records every API call of a key (method, path, status, bodies, duration) in its journal. */
export function journalMiddleware(shared: SandboxState): Middleware {
  return async (call, next) => {
    if (!call.caller || isControlRoute(call)) return next()
    const started = Date.now()
    let response: NeutralResponse
    try {
      response = await next()
    } catch (error) {
      response = renderError(error, shared.log)
    }
    const { request } = call
    const world = shared.tenants.peek(call.caller.tenant, call.scenario)
    const atMs = world ? world.clock.nowMs() : shared.now().getTime()
    const entry: NewJournalEntry = {
      type: 'call',
      at: isoOf(atMs),
      scenario: call.scenario,
      method: request.method.toUpperCase(),
      path: request.path,
      query: hasKeys(request.query) ? request.query : NO_QUERY,
      status: response.status,
      durationMs: Date.now() - started,
      requestBody: new RawBody(request.rawBody),
      responseBody: new RawBody(
        response.text ?? (typeof response.body === 'string' ? response.body : JSON.stringify(response.body)),
      ),
    }
    const fault = response.headers['x-sandbox-fault']
    if (fault) entry.fault = fault
    if (call.hint) entry.hint = call.hint
    shared.journal.record(call.caller.tenant, entry, atMs)
    return response
  }
}

/**
 * Picks the call's world: `x-sandbox-scenario`, else the key's chosen scenario; seeds it before API calls. Not an
 * async function: a world already seeded (nearly every call) goes straight on, with no promise of its own.
 */
export function scenarioMiddleware(shared: SandboxState): Middleware {
  return (call, next) => {
    if (!call.caller) return next()
    let seeding: Promise<unknown> | undefined
    try {
      const header = call.request.headers['x-sandbox-scenario']?.trim()
      const name = header || shared.scenarios.selected(call.caller.tenant)
      shared.scenarios.resolve(name)
      call.scenario = name
      // Control routes seed only when they need the state (GET/PUT /__sandbox/scenario): a scenario whose seed
      // fails must never lock its key out of the control API.
      if (!isControlRoute(call) && !shared.scenarios.isSeeded(shared.tenants.get(call.caller.tenant, name))) {
        seeding = shared.scenarios.world(call.caller.tenant, name, () => publicBaseUrl(call.request))
      }
    } catch (error) {
      return Promise.resolve(renderError(error, shared.log))
    }
    if (seeding === undefined) return next()
    return guarded(shared.log, async () => {
      await seeding
      return next()
    })
  }
}

/** Options of the fault middleware. */
export interface FaultOptions {
  /** the largest x-sandbox-delay accepted, ms (default 30 000) */
  maxDelayMs?: number
}

/**
 * Latency, forced statuses and rate limits, from the call's headers and its world's rules. Not an async function:
 * a call with no delay (nearly every one) goes straight on, with no promise of its own.
 */
export function faultMiddleware(shared: SandboxState, options: FaultOptions = {}): Middleware {
  const windows = new RateWindows()
  const maxDelayMs = options.maxDelayMs ?? 30_000
  return (call, next) => {
    if (!call.caller || isControlRoute(call)) return next()
    let asked: ReturnType<typeof requestedFaults>
    let world: ReturnType<SandboxState['tenants']['get']>
    try {
      asked = requestedFaults(call.request.headers, maxDelayMs)
      world = shared.tenants.get(call.caller.tenant, call.scenario)
    } catch (error) {
      return Promise.resolve(renderError(error, shared.log))
    }
    const delayMs = asked.delayMs ?? world.rules.latencyMs ?? 0
    if (delayMs <= 0) return faultOrNext(windows, world, asked, next)
    return guarded(shared.log, async () => {
      await sleep(delayMs)
      return faultOrNext(windows, world, asked, next)
    })
  }
}

/** The fault a call gets once its delay is over (its world's rate limit, a forced status), else the call itself. */
function faultOrNext(
  windows: RateWindows,
  world: Parameters<RateWindows['take']>[0],
  asked: { status?: number },
  next: () => Promise<NeutralResponse>,
): Promise<NeutralResponse> {
  const wait = windows.take(world)
  if (wait !== null) return Promise.resolve(tagged(faultResponse(429, wait), 'rate-limit'))
  const status = asked.status ?? world.rules.failureStatus
  if (status !== undefined)
    return Promise.resolve(tagged(faultResponse(status), asked.status ? 'x-sandbox-status' : 'rules'))
  return next()
}

function tagged(response: NeutralResponse, fault: string): NeutralResponse {
  response.headers['x-sandbox-fault'] = fault
  return response
}
