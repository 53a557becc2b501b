// Networks on first use: a call that names a network the sandbox is not running yet (a currency such as
// `USDC-base`, a `network` field, the pay query's `chain`) starts that network's anvil and contracts, then
// proceeds, so every documented network works without flags. With the command's `--only-networks` the list is fixed
// and such a call answers 400 naming the flag. `--networks-on-use` narrows which networks start this way (a shared
// demo's operator may list none); by default all eight documented ones, Docker included, so at most one anvil each.
// Bodies are scanned as text first: a call that names no other network (nearly all of them) costs one
// regular-expression test (a body holding a JSON escape is parsed: the escape may spell a network's name).
import type { NetworkName } from '../../chain/index.ts'
import type { MaybePromise } from '../../contract/maybe-promise.ts'
import { isControlRoute, type Middleware } from '../../contract/middleware.ts'
import { hasKeys, type NeutralResponse } from '../../contract/neutral.ts'
import { BadRequestError, SandboxError } from '../../contract/sandbox-error.ts'
import type { SandboxState } from '../../control/services.ts'
import { renderError } from '../../errors/render-error.ts'
import { CHAIN_TO_NETWORK } from '../../resources/pay/index.ts'

/** What the middleware needs of the sandbox: which networks run, and (on-use mode) how to start one. */
export interface NetworksOnUse {
  live(network: string): boolean
  /** absent: the list is fixed (`--only-networks`) and other networks are refused */
  start?: (network: NetworkName) => Promise<void>
  /** with `start`: whether a call may start this network (absent: any); the others are refused naming the flags */
  startable?: (network: string) => boolean
}

/** The networks a string names as the value of `key` (a currency id, a network, a pay-query chain). */
function networkOf(shared: Pick<SandboxState, 'currencies' | 'networks'>, key: string, value: string) {
  // own keys only: `constructor` or `__proto__` names no network (a caller's value, not a start request)
  if (key === 'chain') {
    const chain = value.toUpperCase()
    return Object.hasOwn(CHAIN_TO_NETWORK, chain) ? CHAIN_TO_NETWORK[chain] : undefined
  }
  if (key === 'network' && Object.hasOwn(shared.networks, value)) return value
  const network = shared.currencies.byId(value)?.network
  return network && Object.hasOwn(shared.networks, network) ? network : undefined
}

function collect(
  shared: Pick<SandboxState, 'currencies' | 'networks'>,
  value: unknown,
  key: string,
  found: Set<string>,
  depth: number,
): void {
  if (typeof value === 'string') {
    const network = networkOf(shared, key, value)
    if (network) found.add(network)
  } else if (depth < 4 && Array.isArray(value)) {
    for (const item of value) collect(shared, item, key, found, depth + 1)
  } else if (depth < 4 && value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) collect(shared, v, k, found, depth + 1)
  }
}

/** The networks a call names that are not running. */
export function missingNetworks(
  shared: Pick<SandboxState, 'currencies' | 'networks'>,
  live: (network: string) => boolean,
  request: { query: Record<string, string>; rawBody: string | undefined },
  mentions: RegExp,
): string[] {
  const body = request.rawBody
  // a JSON escape (`\u0062ase`) can spell a name the text does not hold as such: such a body is parsed too
  const scan = body !== undefined && (mentions.test(body) || body.includes('\\u'))
  const queried = hasKeys(request.query)
  // nothing to look at (nearly every call): no set, no copies
  if (!scan && !queried) return []
  const found = new Set<string>()
  for (const [key, value] of Object.entries(request.query)) collect(shared, value, key, found, 0)
  if (scan) {
    try {
      collect(shared, JSON.parse(body!), '', found, 0)
    } catch {
      // not JSON: the route's own validation answers
    }
  }
  return [...found].filter((network) => !live(network))
}

/**
 * The middleware (outermost after faults): starts or refuses the networks a call names. Bodies are tested against
 * the names of the networks not running (rebuilt when that list changes): a body naming only running networks,
 * nearly every call, is not parsed a second time.
 */
export function networkMiddleware(shared: SandboxState, options: NetworksOnUse): Middleware {
  const names = Object.keys(shared.networks)
  // a body that mentions none of the stopped networks' names (nor a `chain`/`network` field) names no stopped network
  // (a currency id holds its network's name, and `byId` folds only case). Networks only ever start: a test built
  // while more were stopped still finds every stopped one (it may parse a body for nothing); rebuilt after a start.
  const stoppedMentions = () =>
    new RegExp(
      `${names
        .filter((n) => !options.live(n))
        .map((n) => `${n.replace(/[-]/g, '\\-')}|`)
        .join('')}"(?:chain|network)"`,
      'i',
    )
  let mentions = stoppedMentions()
  return (call, next) => {
    if (!call.caller || isControlRoute(call)) return next()
    const missing = missingNetworks(shared, options.live, call.request, mentions)
    if (missing.length === 0) return next()
    return startThenNext(missing, next)
  }

  async function startThenNext(missing: string[], next: () => MaybePromise<NeutralResponse>) {
    try {
      if (!options.start) {
        const running = names.filter((n) => options.live(n))
        throw new BadRequestError(
          `Network ${missing.join(', ')} is not running: this sandbox was started with --only-networks ${running.join(',')}; add ${missing.join(',')} to --only-networks, or leave the flag out to start networks on first use`,
        )
      }
      const refused = options.startable ? missing.filter((n) => !options.startable!(n)) : []
      if (refused.length > 0)
        throw new BadRequestError(
          `Network ${refused.join(', ')} is not running, and this shared sandbox starts on first use only the networks its operator allows: ask the operator to add ${refused.join(',')} to --networks (started at once) or to --networks-on-use (started on first use); --networks-on-use all lets any caller start any documented network`,
        )
      for (const network of missing) {
        try {
          await options.start(network as NetworkName)
        } catch (error) {
          shared.log(`could not start network ${network}`, error)
          throw new SandboxError(503, `Network ${network} could not be started: ${(error as Error).message}`)
        } finally {
          mentions = stoppedMentions()
        }
      }
    } catch (error) {
      return renderError(error, shared.log)
    }
    return next()
  }
}
