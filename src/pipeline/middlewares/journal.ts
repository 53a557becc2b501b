// The journal middleware: every API call of a key recorded in its journal. The control API (/__sandbox/*) is not
// journaled.
import { isPromise, type MaybePromise } from '../../contract/maybe-promise.ts'
import { type CallInfo, isControlRoute, type Middleware } from '../../contract/middleware.ts'
import { hasKeys, type NeutralResponse } from '../../contract/neutral.ts'
import { type JournalEntry, RawBody } from '../../control/journal.ts'
import type { SandboxState } from '../../control/services.ts'
import { renderError } from '../../errors/render-error.ts'
import { isoOf } from '../../store/clock.ts'

// most calls have no query: their entries share one empty object instead of keeping one each
const NO_QUERY: Record<string, string> = Object.freeze({}) as Record<string, string>

/** Records every API call of a key (method, path, status, bodies, duration) in its journal. */
export function journalMiddleware(shared: SandboxState): Middleware {
  // an answer kept with its bytes (a memoised list) is journaled as one shared body: not a copy of its start per call
  const keptBodies = new WeakMap<Uint8Array, RawBody>()
  const responseBody = (response: NeutralResponse): RawBody => {
    const { text, utf8 } = response
    if (text === undefined)
      return new RawBody(typeof response.body === 'string' ? response.body : JSON.stringify(response.body))
    if (!utf8) return new RawBody(text)
    let body = keptBodies.get(utf8)
    if (!body) {
      body = new RawBody(text, utf8.byteLength)
      keptBodies.set(utf8, body)
    }
    return body
  }
  /** The entry of a call once its answer is known. */
  const record = (call: CallInfo, started: number, response: NeutralResponse): NeutralResponse => {
    const { request } = call
    const caller = call.caller!
    const world = shared.tenants.peek(caller.tenant, call.scenario)
    const atMs = world ? world.clock.nowMs() : shared.now().getTime()
    // its id is written in by the journal (`recordBuilt`): first here, as in every entry
    const entry: JournalEntry = {
      id: '',
      type: 'call',
      at: isoOf(atMs),
      scenario: call.scenario,
      method: request.method.toUpperCase(),
      // a route's own path when the call's is the same (no parameters): one string for all its calls, not one each
      path: request.path === call.route.path ? call.route.path : request.path,
      query: hasKeys(request.query) ? request.query : NO_QUERY,
      status: response.status,
      durationMs: Date.now() - started,
      requestBody: new RawBody(request.rawBody),
      responseBody: responseBody(response),
    }
    const fault = response.headers['x-sandbox-fault']
    if (fault) entry.fault = fault
    if (call.hint) entry.hint = call.hint
    shared.journal.recordBuilt(caller.tenant, entry, atMs)
    return response
  }
  // not an async function: a call answered at once is journaled at once, with no promise of its own
  return (call, next) => {
    if (!call.caller || isControlRoute(call)) return next()
    const started = Date.now()
    let response: MaybePromise<NeutralResponse>
    try {
      response = next()
    } catch (error) {
      response = renderError(error, shared.log)
    }
    if (!isPromise(response)) return record(call, started, response)
    return response.then(
      (answer) => record(call, started, answer),
      (error) => record(call, started, renderError(error, shared.log)),
    )
  }
}
