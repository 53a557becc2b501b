import type { Caller } from './caller.ts'
import type { World } from './world.ts'

/** What every handler gets besides its services: who calls and, on authenticated routes, their world. */
export interface CallScope {
  /** the caller's credential, null on public routes */
  readonly tenant: string | null
  /** who called (how, and with which client ID); null on public routes */
  readonly caller: Caller | null
  /** the caller's world; throws on public routes */
  readonly world: World
}

/**
 * What a handler sees: the services its resource declared (`S`, e.g. `{currencies, ids}`) and the call scope.
 * The dispatcher hands every handler the same service object; the type lets each see only what it names.
 */
export type RouteContext<S = unknown> = S & CallScope
