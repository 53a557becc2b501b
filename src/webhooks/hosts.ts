// Where webhooks may go (`--webhook-hosts`). A sandbox on a shared host must not become a way into the network behind
// it: a destination is checked on the addresses its name resolves to, at registration and again at every attempt (the
// attempt connects to the address that was checked, so a name cannot resolve elsewhere in between).
//
// Rules: on a loopback listener with no `--webhook-hosts`, anything (a developer's receiver on localhost). Otherwise
// public addresses, plus what `--webhook-hosts` names: host names (`hooks.example.com`), globs (`*.example.com`),
// addresses and CIDR ranges (`10.0.0.0/8`, `fd00::/8`), each optionally with `:port`. The sandbox's own port and its
// anvil ports on a non-public address are refused unless an entry names that port.
import { lookup as dnsLookup } from 'node:dns/promises'
import { BlockList, isIP } from 'node:net'

/** One `--webhook-hosts` entry. */
type HostRule =
  | { kind: 'name'; pattern: RegExp; port: number | null }
  | { kind: 'cidr'; list: BlockList; port: number | null }

/** Addresses that are not public: unspecified, loopback, private, shared, link-local (metadata), multicast, reserved. */
const nonPublic = new BlockList()
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  nonPublic.addSubnet(net, prefix, 'ipv4')
for (const [net, prefix] of [
  // `::` and `::1` included: IPv4-compatible addresses (`::127.0.0.1`, which a URL writes `[::7f00:1]`)
  ['::', 96],
  // NAT64 (well-known and local-use) and 6to4 carry an IPv4 address inside: `64:ff9b::7f00:1`, `2002:7f00:1::`
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['2002::', 16],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  nonPublic.addSubnet(net, prefix, 'ipv6')

/** An address as BlockList reads it: IPv4-mapped IPv6 (`::ffff:127.0.0.1`) as the IPv4 address it is. */
function plain(address: string): { address: string; type: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped) return { address: mapped[1]!, type: 'ipv4' }
  return { address, type: isIP(address) === 6 ? 'ipv6' : 'ipv4' }
}

/** Whether an address is on the public internet. */
export function isPublicAddress(address: string): boolean {
  const a = plain(address)
  if (a.type === 'ipv6' && /^::ffff:/i.test(a.address)) return false
  return !nonPublic.check(a.address, a.type)
}

/** Parses `--webhook-hosts` entries; a malformed one throws naming it. */
export function parseWebhookHosts(entries: readonly string[]): HostRule[] {
  return entries.map((raw) => {
    const entry = raw.trim().toLowerCase()
    const bad = () =>
      new Error(
        `invalid --webhook-hosts entry ${JSON.stringify(raw)}: a host name, a glob (*.example.com), an address or a CIDR range (10.0.0.0/8), optionally :port`,
      )
    const portMatch = /^(\[[^\]]+\]|[^:/]+(?:\/\d+)?):(\d{1,5})$/.exec(entry)
    const host = (portMatch ? portMatch[1]! : entry).replace(/^\[|\]$/g, '')
    const port = portMatch ? Number(portMatch[2]) : null
    if (port !== null && (port < 1 || port > 65535)) throw bad()
    const cidr = /^([0-9a-f:.]+)(?:\/(\d{1,3}))?$/.exec(host)
    if (cidr && isIP(cidr[1]!)) {
      const { address, type } = plain(cidr[1]!)
      const prefix = cidr[2] === undefined ? (type === 'ipv4' ? 32 : 128) : Number(cidr[2])
      if (prefix > (type === 'ipv4' ? 32 : 128)) throw bad()
      const list = new BlockList()
      list.addSubnet(address, prefix, type)
      return { kind: 'cidr', list, port }
    }
    if (!/^(\*\.)?([a-z0-9*-]+\.)*[a-z0-9*-]+$/.test(host)) throw bad()
    const source = host
      .split('.')
      .map((label) => (label === '*' ? '[a-z0-9-]+(?:\\.[a-z0-9-]+)*' : label.replaceAll('*', '[a-z0-9-]*')))
      .join('\\.')
    return { kind: 'name', pattern: new RegExp(`^${source}$`), port }
  })
}

/** Why a destination is refused (the registration answers it as a 400 on `url`). */
export class DestinationRefusedError extends Error {
  override name = 'DestinationRefusedError'
}

/** The address a checked destination connects to. */
export interface CheckedAddress {
  address: string
  family: 4 | 6
}

/** Options of a `DestinationPolicy`. */
export interface DestinationPolicyOptions {
  /** the listener is not loopback-only */
  exposed?: boolean
  /** `--webhook-hosts` entries */
  hosts?: readonly string[]
  /** resolves a host name (default: the system resolver, every address) */
  resolve?: (host: string) => Promise<CheckedAddress[]>
}

const systemResolve = async (host: string): Promise<CheckedAddress[]> =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }))

/** The operator's rules for webhook destinations. */
export class DestinationPolicy {
  readonly #rules: HostRule[]
  /** no rule and a loopback listener: anything goes (as a developer's machine always did) */
  readonly #open: boolean
  readonly #resolve: (host: string) => Promise<CheckedAddress[]>
  /** the sandbox's own ports (its listener, each anvil) */
  readonly #ownPorts = new Set<number>()

  constructor(options: DestinationPolicyOptions = {}) {
    this.#rules = parseWebhookHosts(options.hosts ?? [])
    this.#open = !options.exposed && this.#rules.length === 0
    this.#resolve = options.resolve ?? systemResolve
  }

  /** Refuses the sandbox's own port (or anvil's) on non-public addresses unless an entry names it. */
  protectPort(port: number): void {
    this.#ownPorts.add(port)
  }

  /**
   * Resolves the URL's host and checks every address; answers the first one to connect to (null: connect by name, on
   * a developer's machine only), or throws `DestinationRefusedError` with the reason.
   */
  async check(url: URL): Promise<CheckedAddress | null> {
    const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase()
    const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80
    // a developer's machine: nothing to check but the sandbox's own ports (no name is resolved for nothing)
    if (this.#open && !this.#ownPorts.has(port)) return null
    // an entry naming this port first (it lifts the own-port refusal), then one for any port
    const pick = (matches: (r: HostRule) => boolean) =>
      this.#rules.find((r) => matches(r) && r.port === port) ??
      this.#rules.find((r) => matches(r) && r.port === null)
    const nameRule = pick((r) => r.kind === 'name' && r.pattern.test(host))
    let addresses: CheckedAddress[]
    if (isIP(host)) addresses = [{ address: host, family: isIP(host) === 6 ? 6 : 4 }]
    else {
      try {
        addresses = await this.#resolve(host)
      } catch {
        addresses = []
      }
      // anything goes on a developer's machine: a name that does not resolve (yet) is theirs to fix
      if (addresses.length === 0 && this.#open) return null
      if (addresses.length === 0) throw new DestinationRefusedError(`${host} does not resolve`)
    }
    for (const a of addresses) {
      const { address, type } = plain(a.address)
      const rule = nameRule ?? pick((r) => r.kind === 'cidr' && r.list.check(address, type))
      const publicAddress = isPublicAddress(a.address)
      if (this.#ownPorts.has(port) && !publicAddress && rule?.port !== port)
        throw new DestinationRefusedError(
          `port ${port} of ${host} is the sandbox's own (its server or a chain); allow it with --webhook-hosts ${host}:${port}`,
        )
      if (this.#open || rule || publicAddress) continue
      throw new DestinationRefusedError(
        `${host} is not a public address (${a.address}); allow it with --webhook-hosts`,
      )
    }
    return addresses[0]!
  }
}
