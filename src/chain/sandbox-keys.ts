// The keys the sandbox signs with: its role accounts (deployer, relayer, operator) and the wallets it derives for
// a purpose (a key's test wallet on the Secure Payment Page, the off-ramp's deposit address), all derived from one
// 32-byte deployment secret that is never served. The secret comes from a CSPRNG (kept in --state-dir, see
// src/sandbox/keys.ts), so nobody who reads the sandbox's source can sign as these accounts through /rpc.
import { randomBytes } from 'node:crypto'
import { concat, type Hex, keccak256, toHex } from 'viem'
import { addressOfKey } from './hd-keys.ts'
import type { SandboxAccount, SandboxKeys } from './types.ts'

/** A fresh deployment secret (32 bytes from the operating system's CSPRNG). */
export function newDeploymentSecret(): Hex {
  return toHex(randomBytes(32))
}

/**
 * The keys of a deployment secret: each account's private key is keccak256(secret ‖ 'request-sandbox:' ‖ label).
 * With `publishedRoles` the roles and the off-ramp address are the ones earlier versions used,
 * keccak256('request-sandbox:<name>'), which anyone can compute: kept only for a state dir whose chain those roles
 * own (its tokens' minter, the proxies' admin) and whose requests name that off-ramp address.
 */
export function sandboxKeys(secret: Hex, options: { publishedRoles?: boolean } = {}): SandboxKeys {
  const cache = new Map<string, SandboxAccount>()
  const own = new Set<string>()
  const derive = (label: string): SandboxAccount => {
    let account = cache.get(label)
    if (!account) {
      const privateKey =
        options.publishedRoles && PUBLISHED.has(label)
          ? keccak256(toHex(`request-sandbox:${label.replace(/^role:/, '')}`))
          : keccak256(concat([secret, toHex(`request-sandbox:${label}`)]))
      account = { address: addressOfKey(privateKey), privateKey }
      cache.set(label, account)
      own.add(account.address.toLowerCase())
    }
    return account
  }
  return {
    roles: {
      deployer: derive('role:deployer'),
      relayer: derive('role:relayer'),
      operator: derive('role:operator'),
    },
    derive,
    isOwn: (address) => own.has(address.toLowerCase()),
  }
}

/** The accounts earlier versions made as keccak256('request-sandbox:<name>'): the roles and the off-ramp address. */
const PUBLISHED = new Set(['role:deployer', 'role:relayer', 'role:operator', 'offramp'])
