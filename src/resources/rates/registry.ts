// Differences from the real service: rates come from fixtures/rates.json (USD prices) and per-tenant
// overrides, not from live Chainlink feeds; every route of conversion-routes.json is backed by one
// AggregatorMock answering price(payment)/price(invoice) directly (path [invoice, payment]), where mainnet
// Chainlink would often route through USD. A tenant with its own rates gets its own conversion stack
// (path contract, feeds, proxies) at sandbox addresses, since on-chain feeds are shared by every tenant.
import { readFileSync } from 'node:fs'
import type { Address } from 'viem'
import { getAddress } from 'viem'
import {
  type ConversionStack,
  FEED_DECIMALS,
  type FeedSpec,
  installConversionStack,
  installFeeds,
  type LiveChain,
  type ProxyKind,
  sandboxAddress,
} from '../../chain/index.ts'
import type { CurrencyCatalog, CurrencyFixture } from '../../contract/currencies.ts'
import { divWad, mulWad, toWad, unitsToWad } from '../../contract/decimal.ts'
import type { NetworkTable } from '../../contract/networks.ts'
import type { World } from '../../contract/world.ts'
import { TRON_NETWORK } from '../../tron/index.ts'
import { RatesFixture } from './schema.ts'
import { rateState } from './tables.ts'

/** A conversion route on one network: invoice currency -> payment currency, and the feed behind it. */
export interface ConversionRoute {
  from: CurrencyFixture
  to: CurrencyFixture
  network: string
  /** `_path` of the conversion proxies: [invoice currency hash, payment token or native hash] */
  path: [Address, Address]
}

/** Loads fixtures/rates.json. */
export function loadRatesFixture(fixturesDir = new URL('../../../fixtures/', import.meta.url)): RatesFixture {
  return RatesFixture.parse(JSON.parse(readFileSync(new URL('rates.json', fixturesDir), 'utf8')))
}

const worldKey = (world: World) => `${world.tenant}\u0000${world.scenario}`

/** Rates (fixture + tenant overrides), conversion routes, and the conversion stacks installed on live chains. */
export class ConversionRegistry {
  readonly fixture: RatesFixture
  readonly #currencies: CurrencyCatalog
  readonly #networks: NetworkTable
  readonly #chains: ReadonlyMap<string, LiveChain>
  readonly #defaults = new Map<string, ConversionStack>()
  /** world key -> network -> that world's own stack */
  readonly #tenantStacks = new Map<string, Map<string, ConversionStack>>()
  /** world key -> network -> the own stack of a world still on disk after a restart, read by the detector only */
  readonly #savedStacks = new Map<string, Map<string, ConversionStack>>()
  readonly #queues = new Map<string, Promise<void>>()

  constructor(
    currencies: CurrencyCatalog,
    networks: NetworkTable,
    chains: ReadonlyMap<string, LiveChain>,
    fixture: RatesFixture = loadRatesFixture(),
  ) {
    this.#currencies = currencies
    this.#networks = networks
    this.#chains = chains
    this.fixture = fixture
  }

  /** USD prices (wads) in force for `world`: the fixture, then the world's overrides. */
  prices(world: World | null): Map<string, bigint> {
    const prices = new Map(this.#fixturePrices())
    for (const r of world ? rateState(world).rates.all() : []) prices.set(r.currency, toWad(r.usd))
    return prices
  }

  /** The fixture's USD prices as wads, parsed once (a status or a route list asks for a few prices per call). */
  #fixturePrices(): Map<string, bigint> {
    this.#fixtureWads ??= new Map(Object.entries(this.fixture.usd).map(([id, v]) => [id, toWad(v)]))
    return this.#fixtureWads
  }
  #fixtureWads: Map<string, bigint> | undefined

  /** The USD price (wad) of one currency in force for `world`, or undefined. */
  #price(world: World | null, id: string): bigint | undefined {
    const own = world ? rateState(world).rates.get(id) : undefined
    return own ? toWad(own.usd) : this.#fixturePrices().get(id)
  }

  /** 1 `from` = rate `to` (a wad), or null when either has no price. */
  rate(world: World | null, fromId: string, toId: string): bigint | null {
    const from = this.#price(world, fromId)
    const to = this.#price(world, toId)
    return from && to ? divWad(from, to) : null
  }

  /**
   * What `units` base units of `currencyId` (with `decimals`) are worth in USD, as a wad; null without a price.
   * The one USD conversion of the sandbox: statuses, payment records and payment routes all read it.
   */
  usdValue(world: World | null, currencyId: string, units: bigint, decimals: number): bigint | null {
    const rate = this.rate(world, currencyId, 'USD')
    return rate === null ? null : mulWad(unitsToWad(units, decimals), rate)
  }

  /** The routes of conversion-routes.json on `network` that the sandbox can execute (price and proxy known). */
  routes(network: string): ConversionRoute[] {
    const stack = this.#defaults.get(network) ?? this.#publishedStack(network)
    return stack ? this.#routesWith(network, stack) : []
  }

  /** The route from `fromId` to `toId` (on the payment currency's network), if the sandbox can execute it. */
  route(fromId: string, toId: string): ConversionRoute | undefined {
    const to = this.#currencies.byId(toId)
    return to ? this.routes(to.network).find((r) => r.from.id === fromId && r.to.id === to.id) : undefined
  }

  /** The conversion stack `world` pays through on `network` (its own once it set rates; published addresses off chain). */
  stackFor(world: World | null, network: string): ConversionStack | null {
    if (world && rateState(world).rates.size > 0) {
      const own = this.#tenantStacks.get(worldKey(world))?.get(network)
      if (own) return own
    }
    return this.#defaults.get(network) ?? this.#publishedStack(network)
  }

  /** Installs the default stack and feeds on every live chain (at startup). */
  async installDefaults(): Promise<void> {
    await Promise.all([...this.#chains.values()].map((chain) => this.installDefaultsOn(chain)))
  }

  /**
   * The default stacks already on the live chains (chains kept from an earlier sandbox, back at the state they had
   * once `installDefaults` ran): recorded as installed, nothing sent to the chains.
   */
  adoptDefaults(): void {
    for (const chain of this.#chains.values()) this.#defaults.set(chain.network, this.#stackOf(chain, null))
  }

  /** The published conversion stack on one chain (a network started after the others, on its first use). */
  async installDefaultsOn(chain: LiveChain): Promise<void> {
    const stack = this.#stackOf(chain, null)
    await installConversionStack(chain, stack, this.#feeds(chain.network, stack, null))
    this.#defaults.set(chain.network, stack)
    chain.contracts.ChainlinkConversionPath = stack.path
    if (stack.erc20Proxy) chain.contracts.Erc20ConversionProxy = stack.erc20Proxy
    if (stack.ethProxy) chain.contracts.EthConversionProxy = stack.ethProxy
  }

  /** Puts `world`'s current prices on chain: its own stack on every live chain (installed on first use). */
  applyWorldRates(world: World): Promise<void> {
    const key = worldKey(world)
    const run = (this.#queues.get(key) ?? Promise.resolve()).then(async () => {
      const own = this.#tenantStacks.get(key) ?? new Map<string, ConversionStack>()
      this.#tenantStacks.set(key, own)
      this.#savedStacks.delete(key)
      await Promise.all(
        [...this.#chains.values()].map(async (chain) => {
          const existing = own.get(chain.network)
          const stack = existing ?? this.#stackOf(chain, key)
          const feeds = this.#feeds(chain.network, stack, world)
          if (existing) await installFeeds(chain, feeds)
          else await installConversionStack(chain, stack, feeds)
          own.set(chain.network, stack)
        }),
      )
    })
    this.#queues.set(
      key,
      run.catch(() => undefined),
    )
    return run
  }

  /**
   * The own stack of a world with rates still on disk (--state-dir: past --max-worlds after a restart): the detector
   * reads payments through it as it does an evicted world's (its addresses follow from the key). Nothing is sent to
   * the chains: the world's revival installs it (`applyWorldRates`).
   */
  watchSaved(tenant: string, scenario: string): void {
    const key = `${tenant}\u0000${scenario}`
    if (this.#tenantStacks.has(key)) return
    const stacks = new Map<string, ConversionStack>()
    for (const chain of this.#chains.values()) stacks.set(chain.network, this.#stackOf(chain, key))
    if (stacks.size) this.#savedStacks.set(key, stacks)
  }

  /** Every payment proxy of `network` the detector must read, default and per-tenant, by lower-case address. */
  proxies(network: string): Map<string, ProxyKind> {
    const map = new Map<string, ProxyKind>()
    const chain = this.#chains.get(network)
    if (chain?.contracts.ERC20FeeProxy) map.set(chain.contracts.ERC20FeeProxy.toLowerCase(), 'erc20-fee')
    if (chain?.contracts.EthereumFeeProxy) map.set(chain.contracts.EthereumFeeProxy.toLowerCase(), 'eth-fee')
    const stacks = [
      this.#defaults.get(network),
      ...[...this.#tenantStacks.values()].map((m) => m.get(network)),
      ...[...this.#savedStacks.values()].map((m) => m.get(network)),
    ]
    for (const s of stacks) {
      if (s?.erc20Proxy) map.set(s.erc20Proxy.toLowerCase(), 'erc20-conversion')
      if (s?.ethProxy) map.set(s.ethProxy.toLowerCase(), 'eth-conversion')
    }
    return map
  }

  #publishedStack(network: string): ConversionStack | null {
    if (this.#chains.has(network)) return null
    const c = this.#networks[network]?.contracts ?? {}
    if (!c.Erc20ConversionProxy && !c.EthConversionProxy) return null
    const native = this.#currencies.all.find((x) => x.network === network && x.type === 'ETH')
    return {
      path: getAddress(c.ChainlinkConversionPath ?? sandboxAddress(`${network}:ChainlinkConversionPath`)),
      erc20Proxy: c.Erc20ConversionProxy ? getAddress(c.Erc20ConversionProxy) : null,
      ethProxy: c.EthConversionProxy ? getAddress(c.EthConversionProxy) : null,
      nativeHash: getAddress(native?.hash ?? sandboxAddress(`${network}:native`)),
      erc20FeeProxy: c.ERC20FeeProxy ? getAddress(c.ERC20FeeProxy) : null,
      ethFeeProxy: c.EthereumFeeProxy ? getAddress(c.EthereumFeeProxy) : null,
      batch: c.BatchConversionPayments ? getAddress(c.BatchConversionPayments) : null,
    }
  }

  /** Addresses of a stack on a live chain: published ones for the default stack, sandbox ones otherwise. */
  #stackOf(chain: LiveChain, scope: string | null): ConversionStack {
    const published = this.#networks[chain.network]?.contracts ?? {}
    const at = (name: string) =>
      getAddress(
        scope === null && published[name]
          ? published[name]!
          : sandboxAddress(`${chain.network}:${scope ?? 'default'}:${name}`),
      )
    const native = this.#currencies.all.find((x) => x.network === chain.network && x.type === 'ETH')
    return {
      path: at('ChainlinkConversionPath'),
      erc20Proxy: chain.contracts.ERC20FeeProxy ? at('Erc20ConversionProxy') : null,
      ethProxy: chain.contracts.EthereumFeeProxy && native ? at('EthConversionProxy') : null,
      nativeHash: getAddress(native?.hash ?? sandboxAddress(`${chain.network}:native`)),
      erc20FeeProxy: chain.contracts.ERC20FeeProxy ?? null,
      ethFeeProxy: chain.contracts.EthereumFeeProxy ?? null,
      // where the network has a batch contract, each stack gets one wired to its own proxies (the default stack's
      // is the published one, rewired once the conversion proxies are there)
      batch: chain.contracts.BatchConversionPayments ? at('BatchConversionPayments') : null,
    }
  }

  /** One feed per distinct (payment, invoice) pair of the network's routes, answering at `world`'s prices. */
  #feeds(network: string, stack: ConversionStack, world: World | null): FeedSpec[] {
    const feeds = new Map<string, FeedSpec>()
    const prices = this.prices(world)
    for (const route of this.#routesWith(network, stack)) {
      const [quote, base] = route.path
      const key = `${base}:${quote}`.toLowerCase()
      if (feeds.has(key)) continue
      const answer =
        divWad(prices.get(route.to.id)!, prices.get(route.from.id)!) / 10n ** BigInt(18 - FEED_DECIMALS)
      feeds.set(key, {
        base,
        quote,
        answer: answer > 0n ? answer : 1n,
        address: sandboxAddress(`${network}:${stack.path}:feed:${key}`),
      })
    }
    return [...feeds.values()]
  }

  /** Routes of conversion-routes.json on `network` with a price on both sides and a proxy in `stack`. */
  #routesWith(network: string, stack: ConversionStack): ConversionRoute[] {
    const routes: ConversionRoute[] = []
    for (const from of this.#currencies.all) {
      for (const toId of this.#currencies.conversionTargets(from.id)) {
        const to = this.#currencies.byId(toId)!
        if (to.network !== network || !(from.id in this.fixture.usd) || !(to.id in this.fixture.usd)) continue
        // Tron has no conversion proxy: its conversions are priced off chain (requests/tron-conversion.ts)
        if (network === TRON_NETWORK) continue
        if (!(to.type === 'ETH' ? stack.ethProxy : stack.erc20Proxy)) continue
        const paid = getAddress(to.type === 'ETH' ? to.hash : to.address)
        routes.push({ from, to, network, path: [getAddress(from.hash), paid] })
      }
    }
    return routes
  }
}
