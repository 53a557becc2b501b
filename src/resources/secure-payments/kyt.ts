// KYT screening of payer wallets (use-cases/compliance-gated-payments.mdx) on a link whose resolved policy is
// `kyt_all_wallets`: a wallet that connects (the page's wallet_connected) or asks for calldata (/pay, /calldata) is
// screened before it can pay; a flagged wallet gets 403 and can never reach the sign step. The sandbox runs no
// Hypernative or Merkle Science: screening is deterministic, a wallet is flagged when it is on KYT_FLAGGED_TEST_ADDRESSES
// (documented in docs/secure-payments.md and ARCHITECTURE), whichever provider the policy names. Each screening is
// kept on the link (`payerKytResults` of the lookup). As api-reference/webhooks.mdx says, a KYT refusal emits no
// `secure_payment.access_rejected` (that event is the allowlist's).
import type { World } from '../../contract/world.ts'
import type { SecureServices } from './context.ts'
import { SecurePaymentForbiddenError } from './errors.ts'
import type { SecurePaymentRecord } from './schema.ts'
import { securePaymentState } from './tables.ts'

/** Payer wallets every sandbox screening flags (sanctions), lower-case. Any other wallet passes. */
export const KYT_FLAGGED_TEST_ADDRESSES: readonly string[] = [
  '0x000000000000000000000000000000000000bad1',
  '0x000000000000000000000000000000000000bad2',
  '0x000000000000000000000000000000000000bad3',
]

/** How many screening results a link records (`payerKytResults`). */
export const KYT_RESULTS_KEPT = 50

/** Screens `wallet` for a KYT link (a no-op without a policy); throws 403 when it is flagged. */
export async function screenPayer(
  _shared: SecureServices,
  world: World,
  link: SecurePaymentRecord,
  wallet: string | undefined,
): Promise<void> {
  if (!link.kyt || !wallet) return
  const address = wallet.toLowerCase()
  const flagged = KYT_FLAGGED_TEST_ADDRESSES.includes(address)
  const results = link.kytResults ?? []
  const seen = results.some((r) => r.walletAddress === address)
  // the page's public routes screen any wallet a caller names: a link keeps its first KYT_RESULTS_KEPT results, so a
  // stranger holding the token cannot grow what is stored (later wallets are still screened, just not recorded)
  if (!seen && results.length < KYT_RESULTS_KEPT) {
    const result = {
      walletAddress: address,
      walletType: 'eoa',
      parentWalletAddress: null,
      status: flagged ? 'rejected' : 'approved',
      reasonCode: flagged ? 'sanctions' : null,
      provider: link.kyt.screeningProvider,
      providerReference: null,
      reportUrl: null,
      notes: flagged ? 'On the sandbox list of flagged test addresses' : null,
      rawStatus: flagged ? 'high_risk' : 'low_risk',
      evaluatedAt: world.clock.now().toISOString(),
    }
    await securePaymentState(world).securePayments.update(link.token, (draft) => {
      draft.kytResults = [...(draft.kytResults ?? []), result]
    })
  }
  if (flagged)
    throw new SecurePaymentForbiddenError('This wallet did not pass compliance screening for this payment')
}
