// Each transaction the test wallet sends for a link, once. The page's test-wallet route is public (anyone holding
// the link's token), and the link reads as paid only once the detector has seen the payment: without this record
// ten concurrent sends of the payment all matched /pay's answer and the owner's wallet paid the link ten times (the
// deployer minting the refills). A send that failed may be tried again; one sending or sent answers 409.
import type { LiveChain } from '../../chain/index.ts'
import { SandboxError } from '../../contract/sandbox-error.ts'

/** Links remembered per chain: the oldest is forgotten past it (its link has long been paid or abandoned). */
const MAX_LINKS = 10_000

class SentOnce {
  readonly #sent = new Map<string, Set<string>>()
  readonly #sending = new Set<string>()

  async once<T>(token: string, transaction: string, send: () => Promise<T>): Promise<T> {
    const id = `${token}\n${transaction}`
    if (this.#sending.has(id) || this.#sent.get(token)?.has(transaction))
      throw new SandboxError(
        409,
        'The test wallet has already sent this transaction for this link (each is sent once; a failed one may be retried)',
      )
    this.#sending.add(id)
    try {
      const result = await send()
      let sent = this.#sent.get(token)
      if (!sent) {
        sent = new Set()
        this.#sent.set(token, sent)
        if (this.#sent.size > MAX_LINKS) this.#sent.delete(this.#sent.keys().next().value!)
      }
      sent.add(transaction)
      return result
    } finally {
      this.#sending.delete(id)
    }
  }
}

const records = new WeakMap<LiveChain, SentOnce>()

/** Runs `send` unless the test wallet already sends or sent `transaction` (to, data, value) for the link `token`. */
export function sendOnce<T>(chain: LiveChain, token: string, transaction: string, send: () => Promise<T>) {
  let record = records.get(chain)
  if (!record) {
    record = new SentOnce()
    records.set(chain, record)
  }
  return record.once(token, transaction, send)
}
