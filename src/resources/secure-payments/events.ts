// Secure payment events (DOCS webhook catalog): `payment.confirmed.checkout` / `payment.partial.checkout` in
// addition to the base event for a link's request, `secure_payment.user_event` as the page walks the payer
// through the wallet, `secure_payment.access_rejected` for a wallet the link does not allow. All go through the
// event bus, so webhooks fire signed like every other event.

import type { SandboxEvent } from '../../contract/events.ts'
import type { World } from '../../contract/world.ts'
import type { SecureServices } from './context.ts'
import { completeLink, linkOfRequest, linkStatus, payerAllowed } from './model.ts'
import type { SecurePaymentRecord } from './schema.ts'

/** Subscribes the checkout variants and link completion to the detector's payment events. */
export function subscribeSecurePaymentEvents(
  bus: { subscribe(listener: (event: SandboxEvent, world: World) => unknown): () => void },
  shared: SecureServices,
): () => void {
  return bus.subscribe(async (event: SandboxEvent, world: World) => {
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
    shared.events.emit(world, `${event.type}.checkout`, { ...payload, securePaymentToken: link.token })
  })
}

/** What the page reports as the payer goes through the wallet. */
export type UserEvent = 'wallet_connected' | 'payment_sent_to_wallet' | 'payment_approved_in_wallet'

/**
 * Records a step of the page: `wallet_connected` with a wallet the link does not allow emits
 * `secure_payment.access_rejected` instead (per request of the link) and answers false.
 */
export function recordUserEvent(
  shared: SecureServices,
  world: World,
  link: SecurePaymentRecord,
  userEvent: UserEvent,
  walletAddress: string,
  txHash?: string,
): boolean {
  const timestamp = world.clock.now().toISOString()
  if (!payerAllowed(link, walletAddress)) {
    for (const requestId of link.requestIds)
      shared.events.emit(world, 'secure_payment.access_rejected', {
        requestId,
        attemptedPayerWalletAddress: walletAddress.toLowerCase(),
        timestamp,
      })
    return false
  }
  for (const requestId of link.requestIds)
    shared.events.emit(world, 'secure_payment.user_event', {
      requestId,
      userEvent,
      securePaymentToken: link.token,
      walletAddress: walletAddress.toLowerCase(),
      ...(txHash ? { txHash } : {}),
      timestamp,
    })
  return true
}
