// A client written for the hosted service's staging environment, as an integrator writes it from the pages
// (api-reference/secure-payments.mdx, api-features/secure-payment-integration-guide.mdx): a browser-side client
// ID with its Origin on every call, the calldata of `GET /v2/secure-payments/{token}/pay` sent as it comes through
// a plain viem wallet. It knows nothing of the sandbox: no BigNumber handling, no API key, no control routes.
import type { Account, Chain, PublicClient, Transport, WalletClient } from 'viem'

/** A refused call, with the service's status and body. */
export class StagingApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`staging API answered ${status}: ${JSON.stringify(body)}`)
  }
}

/** What the client sends as a transaction's value: the documented `0`, `"0x0"` or a decimal/hex string of wei. */
function calldataValue(value: unknown): bigint {
  if (typeof value === 'bigint') return value
  if (typeof value === 'number' || typeof value === 'string') return BigInt(value)
  throw new Error(`Unsupported calldata value type: ${typeof value}`)
}

export interface StagingClientOptions {
  baseUrl: string
  clientId: string
  origin: string
}

export function stagingClient(options: StagingClientOptions) {
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(options.baseUrl + path, {
      method,
      headers: {
        'x-client-id': options.clientId,
        origin: options.origin,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const parsed = await res.json().catch(() => null)
    if (!res.ok) throw new StagingApiError(res.status, parsed)
    return parsed as T
  }
  return {
    createSecurePayment: (
      requests: { payee: string; amount: string; invoiceCurrency: string; paymentCurrency: string }[],
    ) =>
      call<{ requestIds: string[]; securePaymentUrl: string; token: string }>('POST', '/v2/secure-payments', {
        requests,
      }),
    securePayment: (token: string) => call<{ status: string }>('GET', `/v2/secure-payments/${token}`),
    /** Whether the link is completed: the service answers 409 once it is. */
    async isCompleted(token: string): Promise<boolean> {
      try {
        await call('GET', `/v2/secure-payments/${token}`)
        return false
      } catch (error) {
        if (error instanceof StagingApiError && error.status === 409) return true
        throw error
      }
    },
    requestStatus: (requestId: string) => call<{ hasBeenPaid: boolean }>('GET', `/v2/request/${requestId}`),
    /** Fetches the calldata for the wallet and sends each transaction in order, each after the previous is mined. */
    async pay(
      token: string,
      wallet: WalletClient<Transport, Chain, Account>,
      publicClient: PublicClient,
    ): Promise<`0x${string}`[]> {
      const calldata = await call<{
        transactions: { to: `0x${string}`; data: `0x${string}`; value: unknown }[]
      }>('GET', `/v2/secure-payments/${token}/pay?wallet=${wallet.account.address}`)
      const hashes: `0x${string}`[] = []
      for (const tx of calldata.transactions) {
        const hash = await wallet.sendTransaction({
          to: tx.to,
          data: tx.data,
          value: calldataValue(tx.value),
        })
        const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 })
        if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`)
        hashes.push(hash)
      }
      return hashes
    },
  }
}
