// Webhook chaos for the events one call causes: `x-sandbox-webhook-chaos: <action>[:<n>]` (duplicate, drop,
// delay:<ms>, reorder:<ms>, fail:<status>) on an API call applies that action to the deliveries of every event the
// call emits (the call's async context: its handler and the timers it arms).

import type { AsyncLocalStorage } from 'node:async_hooks'
import type { Middleware } from '../contract/middleware.ts'
import { BadRequestError } from '../contract/sandbox-error.ts'
import { renderError } from '../errors/render-error.ts'
import { CHAOS_ACTIONS, type ChaosRule } from './chaos-rules.ts'

export const CHAOS_HEADER = 'x-sandbox-webhook-chaos'

/** Parses the header's value; throws a 400 naming the accepted forms. */
export function parseChaosHeader(value: string): ChaosRule {
  const match = /^(\w+)(?::(\d{1,5}))?$/.exec(value.trim())
  const action = match?.[1] as ChaosRule['action'] | undefined
  if (!match || !action || !(CHAOS_ACTIONS as readonly string[]).includes(action))
    throw new BadRequestError(
      `${CHAOS_HEADER} is one of ${CHAOS_ACTIONS.join(', ')}, with :<ms> for delay and reorder or :<status> for fail`,
    )
  const n = match[2] === undefined ? undefined : Number(match[2])
  if (n !== undefined && action === 'fail' && !(n >= 400 && n <= 599))
    throw new BadRequestError(`${CHAOS_HEADER} fail:<status> takes a status from 400 to 599`)
  if (n !== undefined && (action === 'delay' || action === 'reorder') && n > 60_000)
    throw new BadRequestError(`${CHAOS_HEADER} ${action}:<ms> takes at most 60000`)
  return {
    events: ['*'],
    action,
    ...(n !== undefined && action === 'fail' ? { status: n } : {}),
    ...(n !== undefined && (action === 'delay' || action === 'reorder') ? { delayMs: n } : {}),
  }
}

/** Runs a call carrying the header inside its chaos. */
export function webhookChaosMiddleware(shared: {
  webhooks: { callChaos: AsyncLocalStorage<ChaosRule> }
  log(message: string, error?: unknown): void
}): Middleware {
  return (call, next) => {
    const header = call.request.headers[CHAOS_HEADER]
    if (header === undefined || !call.caller) return next()
    let rule: ChaosRule
    try {
      rule = parseChaosHeader(header)
    } catch (error) {
      return Promise.resolve(renderError(error, shared.log))
    }
    return shared.webhooks.callChaos.run(rule, next)
  }
}
