// Secure payment events (DOCS webhook catalog): `payment.confirmed.checkout` / `payment.partial.checkout` in
// addition to the base event for a link's request, `secure_payment.user_event` as the page walks the payer
// through the wallet, `secure_payment.access_rejected` for a wallet the link does not allow. All go through the
// event bus, so webhooks fire signed like every other event. The checkout variants follow a payment event: the
// sandbox's one bus subscriber (`wireEvents`) calls `followPaymentEvent` after journaling and delivering it.

import { createHash } from 'node:crypto'
import type { SandboxEvent } from '../../contract/events.ts'
import type { World } from '../../contract/world.ts'
import type { SecureServices } from './context.ts'
import { completeLink, linkOfRequest, linkStatus, payerAllowed } from './model.ts'
import type { SecurePaymentRecord } from './schema.ts'

/**
 * What follows a payment event (`payment.confirmed`, `payment.partial`) of a secure payment link's request: the link
 * completes when it is paid, then the event's `.checkout` variant is emitted. Any other event: nothing.
 */
export async function followPaymentEvent(
  shared: SecureServices,
  event: SandboxEvent,
  world: World,
): Promise<void> {
  if (event.type !== 'payment.confirmed' && event.type !== 'payment.partial') return
  const requestId = event.payload.requestId
  if (typeof requestId !== 'string') return
  const link = linkOfRequest(world, requestId)
  if (!link) return
  const { event: _type, ...payload } = event.payload
  // completed first: whoever reads the link on the .checkout webhook finds it completed
  if (linkStatus(shared, world, link) === 'completed') {
    const payer = typeof payload.payerAddress === 'string' ? payload.payerAddress : null
    await completeLink(world, link, payer)
  }
  shared.events.emit(
    world,
    `${event.type}.checkout`,
    { ...payload, securePaymentToken: link.token },
    { clientId: link.clientId ?? event.clientId ?? null },
  )
}

/** What the page reports as the payer goes through the wallet. */
export type UserEvent = 'wallet_connected' | 'payment_sent_to_wallet' | 'payment_approved_in_wallet'

/** What the page reports beside the step (client-reported telemetry, as the documents say). */
export interface UserEventReport {
  userEvent: UserEvent
  walletAddress: string
  txHash?: string | undefined
  occurredAt?: string | undefined
  walletProvider?: string | undefined
}

/** The hashed wallet of `properties.wallet_address_hashed`: SHA-256 of the lowercased address, hex. */
export function hashedWallet(address: string): string {
  return createHash('sha256').update(address.toLowerCase()).digest('hex')
}

/**
 * Records a step of the page as one `secure_payment.user_event` per link, in the documented payload
 * (api-reference/webhooks.mdx, Secure Payment User Event): `securePaymentToken`, `requestIds`, `requestId` only
 * when the link has exactly one request, `occurredAt` (client-reported) and `timestamp` (server-stamped),
 * `properties` with the wallet hashed, never raw. `wallet_connected` with a wallet the link does not allow emits
 * `secure_payment.access_rejected` instead (per request of the link) and answers false.
 */
export function recordUserEvent(
  shared: SecureServices,
  world: World,
  link: SecurePaymentRecord,
  report: UserEventReport,
): boolean {
  const timestamp = world.clock.now().toISOString()
  if (!payerAllowed(link, report.walletAddress)) {
    for (const requestId of link.requestIds)
      shared.events.emit(
        world,
        'secure_payment.access_rejected',
        { requestId, attemptedPayerWalletAddress: report.walletAddress.toLowerCase(), timestamp },
        { clientId: link.clientId },
      )
    return false
  }
  shared.events.emit(
    world,
    'secure_payment.user_event',
    {
      userEvent: report.userEvent,
      securePaymentToken: link.token,
      ...(link.requestIds.length === 1 ? { requestId: link.requestIds[0] } : {}),
      requestIds: link.requestIds,
      orchestratorId: null,
      occurredAt: report.occurredAt ?? timestamp,
      timestamp,
      properties: {
        wallet_provider: report.walletProvider ?? 'injected',
        wallet_address_hashed: hashedWallet(report.walletAddress),
        payment_type: link.paymentType,
        selected_source_chain: link.network,
        ...(report.txHash
          ? { payment_submission_id: report.txHash, payment_submission_id_type: 'evm_tx_hash' }
          : {}),
      },
    },
    { clientId: link.clientId },
  )
  return true
}
