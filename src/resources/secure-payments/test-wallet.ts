// The Secure Payment Page's built-in test wallet: one per link owner's key, derived from the deployment's secret
// (LiveChain.derivedAccount), so no stranger can sign with it through /rpc and no key pays from another's. It is
// refilled before each use: its native coin and the tokens its links pay in are brought back up when low, so what
// it paid before (or a faucet call) never leaves it unable to pay.
import type { Address } from 'viem'
import type { LiveChain, SandboxAccount } from '../../chain/index.ts'
import type { SecureServices } from './context.ts'

/** Whole units of the native coin the test wallet gets back when it holds less than a tenth of them. */
const NATIVE_TARGET = 10_000n
/** Whole units of each token it pays in that it gets back when it holds less than half of them. */
const TOKEN_TARGET = 1_000_000n

/** The test wallet of the key `tenant` on `chain` (the same address on every chain). */
export function testWalletOf(chain: LiveChain, tenant: string): SandboxAccount {
  return chain.derivedAccount(`test-wallet:${tenant}`)
}

/** Tops the test wallet up with gas and the links' tokens (`currencies`: their ids) before it sends. */
export async function refillTestWallet(
  shared: Pick<SecureServices, 'currencies'>,
  chain: LiveChain,
  wallet: Address,
  currencies: readonly string[],
): Promise<void> {
  const native = NATIVE_TARGET * 10n ** 18n
  const held = await chain.balanceOf('native', wallet)
  if (held < native / 10n) await chain.fund('native', wallet, native - held)
  for (const id of new Set(currencies)) {
    const token = chain.tokens[id]
    const decimals = shared.currencies.byId(id)?.decimals
    if (!token || decimals === undefined) continue
    const target = TOKEN_TARGET * 10n ** BigInt(decimals)
    const balance = await chain.balanceOf(token, wallet)
    if (balance < target / 2n) await chain.fund(token, wallet, target - balance)
  }
}
