// Claimable sandboxes (--claimable): a visitor of a shared server creates a sandbox of its own, a fresh key with an
// expiry (POST /__sandbox/sandboxes), without an operator handing out keys. In strict mode a live claimed key passes
// like a key of --api-keys (the sandbox is created with prepareClaimable's `admitsKey`). Expiry is on the wall clock
// (a key's own clock moves forward at will: it must not shorten or lengthen the claim), checked every minute and on
// each call of the key: from then on the key answers 401 naming its expiry, on the API, the dashboard's calls and
// /mcp, and so do its session tokens and client IDs (`credentials.ts`); once its calls under way have ended its state
// is deleted (deliveries and their records, webhooks, worlds with their rows in state.db, journal, snapshot files,
// scenario choice, session tokens). Without --claimable none of this is installed and /__sandbox/sandboxes answers 404
// as any unknown path.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import type { NeutralRequest, NeutralResponse } from '../contract/neutral.ts'
import { publicBaseUrl } from '../contract/public-url.ts'
import { SandboxError } from '../contract/sandbox-error.ts'
import { addressGroup, clientAddress, trustedOrigin } from '../contract/security.ts'
import type { Sandbox } from '../sandbox.ts'
import { claimBodyError } from './body.ts'
import { CLAIM_PREFIX, type Claim, ClaimBook } from './claims.ts'
import { credentialKeys } from './credentials.ts'
import { ClaimRate } from './rate.ts'
import { ClaimedStreams } from './streams.ts'

/** Options of claimable sandboxes. */
export interface ClaimableOptions {
  /** how long a claimed sandbox lives, in ms (--sandbox-ttl in days; default 7 days) */
  ttlMs?: number
  /** claims one client address may make an hour (--claim-rate; default 5) */
  perAddressPerHour?: number
  /** live claims in all (--max-claims; default 1000) */
  maxLive?: number
  /** live claims one client address may hold (--claims-per-address; default 20): the hourly rate alone lets one
   * address hold rate × 24 × ttl days of them, most of --max-claims */
  livePerAddress?: number
  /** the wall clock, ms since the epoch (tests move it) */
  now?: () => number
  /** how often due claims are looked for, in ms (default 60 000) */
  sweepMs?: number
}

export const CLAIM_DEFAULTS = {
  ttlMs: 7 * 86_400_000,
  perAddressPerHour: 5,
  maxLive: 1000,
  livePerAddress: 20,
  sweepMs: 60_000,
}

const PATH = '/__sandbox/sandboxes'

/** What a claim shows (GET /__sandbox/sandboxes/{key}). */
function view(claim: Claim) {
  return {
    key: claim.key,
    status: claim.expiredAt ? 'expired' : 'active',
    createdAt: claim.createdAt,
    expiresAt: claim.expiresAt,
    ...(claim.expiredAt ? { expiredAt: claim.expiredAt } : {}),
  }
}

/**
 * Claimable sandboxes before their sandbox exists: the claims (read back from `stateDir`), the keys strict mode admits
 * for them (SandboxOptions.admitsKey: a live claim whose expiry has not come), and their installation on the sandbox.
 */
export interface ClaimableSetup {
  admitsKey(key: string): boolean
  /** a claimed key, live or expired (SandboxOptions.claimedKey: claimed keys share half of each sandbox-wide total) */
  claimedKey(key: string): boolean
  install(sandbox: Sandbox): Claimable
}

export function prepareClaimable(options: ClaimableOptions, stateDir: string | undefined): ClaimableSetup {
  const now = options.now ?? Date.now
  // the sandbox's log once it is installed; what the book reports before (claims.json made private) waits for it
  const early: [string, unknown][] = []
  let log: (message: string, error?: unknown) => void = (message, error) => early.push([message, error])
  const book = new ClaimBook(stateDir, (message, error) => log(message, error))
  return {
    admitsKey: (key) => {
      const claim = book.get(key)
      return claim !== undefined && !claim.expiredAt && Date.parse(claim.expiresAt) > now()
    },
    claimedKey: (key) => key.startsWith(CLAIM_PREFIX) && book.get(key) !== undefined,
    install: (sandbox) => {
      log = sandbox.log
      for (const [message, error] of early.splice(0)) log(message, error)
      return createClaimable(sandbox, options, book)
    },
  }
}

export interface Claimable {
  /** the sandbox with expired claimed keys refused and claimed keys' calls counted (what the transports call) */
  guarded: Sandbox
  /** the listener with /__sandbox/sandboxes in front of it and expired keys refused */
  wrap(inner: RequestListener): RequestListener
  /** expires what is due now (the minute's sweep) */
  sweep(): void
  /**
   * Calls `listener` with each key as it expires, after its streams ended (what else holds the key's connections
   * open, the server's /mcp sessions, closes them there)
   */
  onExpired(listener: (key: string) => void): void
  close(): void
}

/**
 * Installs claimable sandboxes on `sandbox` (created with the setup's `admitsKey`): their routes, their door refusing
 * expired keys, their expiry.
 */
function createClaimable(sandbox: Sandbox, options: ClaimableOptions, book: ClaimBook): Claimable {
  const settings = { ...CLAIM_DEFAULTS, ...options }
  const now = options.now ?? Date.now
  const rate = new ClaimRate(settings.perAddressPerHour)
  const { shared } = sandbox

  /** the calls under way of claimed keys, by key: an expired key's state is deleted once the last one has ended */
  const busy = new Map<string, number>()
  /**
   * the key's state deleted: its deliveries first (their retries cancelled, an attempt under way records nothing, their
   * records in memory and state.db), webhooks, then worlds (their rows in state.db), journal (what was not appended
   * yet is dropped), snapshot files, scenario choice. No call of the key is under way: nothing writes any of it back.
   * The claim is marked wiped once these deletes are committed (`committed`): a kill before leaves it expired and not
   * wiped, and the next start deletes again (the deletes find what is left, or nothing). A delete or a commit that
   * failed is logged and tried again by the next sweep.
   */
  const wiping = new Set<string>()
  /** deletes the state of each key not being deleted already; their claims marked wiped in one write once committed */
  const wipe = (keys: readonly string[]) => {
    const deleted: string[] = []
    for (const key of keys) if (!wiping.has(key) && deleteState(key)) deleted.push(key)
    if (deleted.length === 0) return
    for (const key of deleted) wiping.add(key)
    sandbox
      .committed()
      .then(
        () => book.wiped(deleted),
        (error) =>
          sandbox.log(
            'claimable: the deletion of an expired key could not be committed to --state-dir (tried again at the next sweep and start)',
            error,
          ),
      )
      .finally(() => {
        for (const key of deleted) wiping.delete(key)
      })
  }
  /** one key's deletes; false (logged) when one failed */
  const deleteState = (key: string): boolean => {
    try {
      shared.webhooks.forget(key)
      shared.webhooks.registry.forget(key)
      sandbox.control.reset(key)
      shared.directory.forgetSessions(key)
      for (const snapshot of shared.snapshots.list(key).snapshots) shared.snapshots.delete(key, snapshot.name)
      const scenarios = shared.scenarios
      if (scenarios.selected(key) !== scenarios.defaultScenario)
        scenarios.select(key, scenarios.defaultScenario)
      return true
    } catch (error) {
      // (a snapshot file the disk would not remove) thrown at the sweep's timer or a call's listener, it would end the
      // process: the claim stays to delete
      sandbox.log(
        'claimable: the deletion of an expired key failed (tried again at the next sweep and start)',
        error,
      )
      return false
    }
  }
  /** the streams claimed keys hold open: their expiry ends them */
  const streams = new ClaimedStreams()
  const expiredListeners: ((key: string) => void)[] = []
  /** refused at once, their streams and sessions ended; deleted now, or when their last call under way ends */
  const expire = (claims: readonly Claim[]) => {
    if (claims.length === 0) return
    book.expired(
      claims.map((claim) => claim.key),
      now(),
    )
    for (const { key } of claims) {
      streams.end(key)
      for (const listener of expiredListeners) {
        try {
          listener(key)
        } catch (error) {
          sandbox.log("claimable: closing an expired key's sessions failed", error)
        }
      }
    }
    wipe(claims.filter((claim) => !busy.has(claim.key)).map((claim) => claim.key))
  }
  /** the expired claims whose state is to delete and that no call under way holds */
  const idleUnwiped = () =>
    book
      .unwiped()
      .filter((claim) => !busy.has(claim.key))
      .map((claim) => claim.key)
  // claims that expired while the server was stopped, or whose delete a stop interrupted
  wipe(idleUnwiped())
  // the snapshots live claims saved before a restart count in their share of --snapshot-total-mb from the start
  for (const key of book.liveKeys()) shared.snapshots.usage(key)
  const sweep = () => {
    expire(book.due(now()))
    // deletes whose commit failed
    wipe(idleUnwiped())
  }
  /** the claim behind an x-api-key, expired first if its time has come; undefined for any other key */
  const claimOf = (key: string | undefined): Claim | undefined => {
    const claim = key ? book.get(key.trim()) : undefined
    if (claim && !claim.expiredAt && Date.parse(claim.expiresAt) <= now()) expire([claim])
    return claim
  }
  /**
   * the claim of the key a request acts as (its first credential), or an expired claim any of its credentials names
   * (x-api-key, a client ID, a session token): that one refuses the call
   */
  const claimOfRequest = (headers: Record<string, string | string[] | undefined>): Claim | undefined => {
    const keys = credentialKeys(headers, shared.directory)
    for (const key of keys) {
      const claim = claimOf(key)
      if (claim?.expiredAt) return claim
    }
    return keys[0] === undefined ? undefined : claimOf(keys[0])
  }
  const expiredError = (claim: Claim) =>
    new SandboxError(
      401,
      `This sandbox expired at ${claim.expiresAt} and its state was deleted: create a new one (POST ${PATH})`,
    )
  const timer = setInterval(sweep, settings.sweepMs)
  timer.unref()

  // a new `dispatch`, without the sandbox's `now`: the Node listener has no way around the door
  const guarded: Sandbox = Object.create(sandbox, {
    dispatch: {
      value: async (request: NeutralRequest): Promise<NeutralResponse> => {
        const claim = claimOfRequest(request.headers)
        if (claim?.expiredAt) {
          const error = expiredError(claim)
          return { status: error.status, headers: {}, body: error.body }
        }
        if (!claim) return sandbox.dispatch(request)
        const { key } = claim
        busy.set(key, (busy.get(key) ?? 0) + 1)
        try {
          const response = await sandbox.dispatch(request)
          // a stream lives until its key expires
          if (response.stream)
            response.stream = streams.hold(key, response.stream, () => claim.expiredAt !== undefined)
          return response
        } finally {
          const left = busy.get(key)! - 1
          if (left) busy.set(key, left)
          else {
            busy.delete(key)
            if (claim.expiredAt && !claim.wiped) wipe([key])
          }
        }
      },
    },
  })

  const neutralOf = (req: IncomingMessage): NeutralRequest => ({
    method: req.method ?? 'GET',
    path: (req.url ?? '/').split('?')[0]!,
    query: {},
    headers: req.headers as Record<string, string>,
    rawBody: undefined,
    ...(req.socket.remoteAddress ? { remoteAddress: req.socket.remoteAddress } : {}),
  })

  function claims(req: IncomingMessage, res: ServerResponse, neutral: NeutralRequest): boolean {
    const rest = neutral.path.slice(PATH.length)
    if (rest === '' && req.method === 'POST') {
      if (!trustedOrigin(neutral, shared.security, 'control-write')) {
        req.resume()
        return send(res, new SandboxError(403, 'Claimable sandboxes are not created from this Origin'))
      }
      // the route takes no body: a malformed one answers 400 before any bound counts the call
      void claimBodyError(req).then((error) => (error ? send(res, error) : create(res, neutral)))
      return true
    }
    const key = /^\/([^/]+)$/.exec(rest)?.[1]
    if (key !== undefined && req.method === 'GET') {
      req.resume()
      const claim = claimOf(decodedKey(key))
      if (!claim) return send(res, new SandboxError(404, 'No such sandbox'))
      return send(res, 200, view(claim))
    }
    req.resume()
    return send(res, new SandboxError(rest === '' ? 405 : 404, `Cannot ${req.method} ${neutral.path}`))
  }

  /** A new claim, within the bounds (POST /__sandbox/sandboxes). */
  function create(res: ServerResponse, neutral: NeutralRequest): true {
    // claims past their expiry give their place back before the bound is read
    sweep()
    if (book.live >= settings.maxLive)
      return send(
        res,
        new SandboxError(
          507,
          `This server holds its most claimable sandboxes (${settings.maxLive}): try again once some expire, or start it with a higher --max-claims`,
        ),
      )
    const address = addressGroup(clientAddress(neutral))
    if (book.liveOf(address) >= settings.livePerAddress)
      return send(
        res,
        new SandboxError(
          429,
          `An address may hold at most ${settings.livePerAddress} live sandboxes: use one of them, or start the server with a higher --claims-per-address`,
          { headers: { 'retry-after': '3600' } },
        ),
      )
    if (!rate.take(address, now()))
      return send(
        res,
        new SandboxError(
          429,
          `An address may create at most ${settings.perAddressPerHour} sandboxes an hour: try again later, or start the server with a higher --claim-rate`,
          { headers: { 'retry-after': '600' } },
        ),
      )
    let claim: Claim
    try {
      claim = book.create(now(), settings.ttlMs, address)
    } catch (error) {
      // not on disk, so neither kept nor answered (a restart would not know the key)
      sandbox.log('claimable: claims.json could not be written', error)
      return send(
        res,
        new SandboxError(
          507,
          'The sandbox could not record a new sandbox in its --state-dir (the disk refused claims.json): try again later',
        ),
      )
    }
    const base = publicBaseUrl(neutral)
    return send(res, 201, {
      ...view(claim),
      dashboardUrl: `${base}/`,
      apiBaseUrl: base,
      mcpUrl: `${base}/mcp`,
      statusUrl: `${base}${PATH}/${claim.key}`,
    })
  }

  return {
    guarded,
    sweep,
    onExpired: (listener) => {
      expiredListeners.push(listener)
    },
    close: () => {
      clearInterval(timer)
      // a delete waiting for a call runs now (the server stopped listening): the sandbox closes after this, committing it
      wipe(book.unwiped().map((claim) => claim.key))
    },
    wrap: (inner) => (req, res) => {
      const neutral = neutralOf(req)
      if (neutral.path === PATH || neutral.path.startsWith(`${PATH}/`)) {
        claims(req, res, neutral)
        return
      }
      const claim = claimOfRequest(req.headers)
      if (claim?.expiredAt) {
        req.resume()
        send(res, expiredError(claim))
        return
      }
      inner(req, res)
    },
  }
}

/** A key from the status path, or '' (no claim's) when it is not valid percent-encoding. */
function decodedKey(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return ''
  }
}

/** Writes an answer; true, for the handler that returns it. */
function send(res: ServerResponse, status: number | SandboxError, body?: unknown): true {
  const error = status instanceof SandboxError ? status : null
  res.writeHead(error ? error.status : (status as number), {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    ...(error?.headers ?? {}),
  })
  res.end(JSON.stringify(error ? error.body : body))
  return true
}
