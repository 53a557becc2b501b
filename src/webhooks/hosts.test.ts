import { describe, expect, it } from 'vitest'
import { DestinationPolicy, isPublicAddress, parseWebhookHosts } from './hosts.ts'

const names: Record<string, string[]> = {
  'hooks.example.com': ['93.184.215.14'],
  'a.b.example.com': ['93.184.215.15'],
  'inside.corp': ['10.2.3.4'],
  'dual.example': ['93.184.215.16', '127.0.0.1'],
  localhost: ['127.0.0.1'],
}
const resolve = async (host: string) =>
  (names[host] ?? []).map((address) => ({ address, family: (address.includes(':') ? 6 : 4) as 4 | 6 }))
const refused = (policy: DestinationPolicy, url: string) =>
  policy.check(new URL(url)).then(
    () => null,
    (error: Error) => error.message,
  )

describe('webhook destinations (--webhook-hosts)', () => {
  it('knows public from internal addresses, IPv4-mapped IPv6 included', () => {
    for (const a of ['93.184.215.14', '8.8.8.8', '2606:4700::1111']) expect(isPublicAddress(a), a).toBe(true)
    for (const a of [
      '127.0.0.1',
      '0.0.0.0',
      '10.0.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '::ffff:7f00:1',
      '::7f00:1',
      '64:ff9b::7f00:1',
      '64:ff9b:1::7f00:1',
      '2002:7f00:1::',
    ])
      expect(isPublicAddress(a), a).toBe(false)
  })

  it('refuses malformed entries, naming them', () => {
    for (const entry of ['http://x', '10.0.0.0/40', 'a b', 'host:99999'])
      expect(() => parseWebhookHosts([entry]), entry).toThrow(/invalid --webhook-hosts entry/)
  })

  it('on a shared listener allows public addresses and the entries: names, globs, CIDR ranges, ports', async () => {
    const policy = new DestinationPolicy({
      exposed: true,
      hosts: ['*.example.com', '10.0.0.0/8', 'localhost:4000', 'fd00::/8'],
      resolve,
    })
    expect(await refused(policy, 'https://hooks.example.com/h')).toBeNull()
    expect(await refused(policy, 'https://a.b.example.com/h')).toBeNull()
    expect(await refused(policy, 'http://inside.corp/h')).toBeNull() // 10.2.3.4 is in 10.0.0.0/8
    expect(await refused(policy, 'http://[fd00::5]/h')).toBeNull()
    expect(await refused(policy, 'http://192.168.1.1/h')).toMatch(/not a public address/)
    expect(await refused(policy, 'http://localhost:4001/h')).toMatch(/not a public address/)
    expect(await refused(policy, 'http://nowhere.test/h')).toMatch(/does not resolve/)
    // every address a name resolves to must pass
    expect(await refused(policy, 'http://dual.example/h')).toMatch(/not a public address \(127\.0\.0\.1\)/)
  })

  it("refuses the sandbox's own ports unless an entry names the port", async () => {
    const open = new DestinationPolicy({ resolve })
    open.protectPort(8545)
    expect(await refused(open, 'http://127.0.0.1:4000/h')).toBeNull()
    expect(await refused(open, 'http://127.0.0.1:8545/')).toMatch(/the sandbox's own/)
    const allowed = new DestinationPolicy({ hosts: ['127.0.0.0/8', '127.0.0.1:8545'], resolve })
    allowed.protectPort(8545)
    allowed.protectPort(8080)
    expect(await refused(allowed, 'http://127.0.0.1:8545/')).toBeNull()
    expect(await refused(allowed, 'http://127.0.0.1:8080/')).toMatch(/the sandbox's own/)
  })
})
