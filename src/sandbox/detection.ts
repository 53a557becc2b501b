// The step of createSandbox that watches the chains: a payment detector and a commerce escrow watcher on every
// chain (those started later too); each payment they record is published on the event bus (`payment`).
import {
  type EscrowWatcher,
  type PaymentDetector,
  startDetector,
  watchCommerceEscrow,
} from '../chain/index.ts'
import type { SandboxState } from '../control/services.ts'
import { applyEscrowEvents } from '../resources/commerce-payments/index.ts'
import { createDetectionSink } from '../resources/requests/index.ts'
import type { ChainFleet } from './chains.ts'

export interface Detection {
  /** the payment detector of each live chain */
  detectors: ReadonlyMap<string, PaymentDetector>
  /** stops every detector and escrow watcher */
  stop(): Promise<void>
}

export function wireDetection(shared: SandboxState, fleet: ChainFleet): Detection {
  const log = shared.log
  const sink = createDetectionSink(shared, (world, request, payment) =>
    shared.events.publish('payment', world, request, payment),
  )
  const detectors = new Map<string, PaymentDetector>()
  const escrowWatchers: EscrowWatcher[] = []
  fleet.onEachChain((chain) => {
    detectors.set(
      chain.network,
      startDetector({ chain, proxies: () => fleet.conversion.proxies(chain.network), sink, log }),
    )
    // the commerce escrow's events (authorize, capture, void, refund) become the payments' transitions and webhooks
    escrowWatchers.push(
      watchCommerceEscrow(chain, { apply: (events) => applyEscrowEvents(shared, events) }, log),
    )
  })
  return {
    detectors,
    async stop() {
      await Promise.all([...detectors.values()].map((d) => d.stop()))
      await Promise.all(escrowWatchers.map((w) => w.stop()))
    },
  }
}
