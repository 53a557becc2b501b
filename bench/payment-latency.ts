// How long a payment takes to show through the API: create a request, get its calldata, send the payment
// from a default account, and time from the transaction's receipt (as the wallet sees it) to the first
// GET /v2/request/{id} that answers hasBeenPaid: true. Run alone: `npx tsx bench/payment-latency.ts [runs]`.
import { pathToFileURL } from 'node:url'
import { createPublicClient, createWalletClient, defineChain, type Hex, http } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { Sandbox } from '../src/sandbox.ts'
import { startServer } from '../src/server.ts'

/** Figures of one benchmark, in milliseconds. */
export interface PaymentLatency {
  runs: number
  /** receipt -> first GET showing hasBeenPaid (what the target is about) */
  receiptToPaid: { medianMs: number; p95Ms: number; maxMs: number }
  /** create -> pay -> first GET showing hasBeenPaid, the whole loop */
  createToPaid: { medianMs: number; p95Ms: number }
  /** how many status reads were needed after the receipt (1 = already paid at the first read) */
  readsAfterReceipt: { median: number; max: number }
}

/** Options of measurePaymentLatency. */
export interface PaymentLatencyOptions {
  runs?: number
  /** a running sandbox and the base URL its API answers on (default: a fresh server, stopped afterwards) */
  target?: { sandbox: Sandbox; baseUrl: string }
  /** default account paying (default 1) */
  account?: number
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
const round = (ms: number) => Math.round(ms * 10) / 10

/** Runs the create -> pay -> visible loop `runs` times and summarises the latencies. */
export async function measurePaymentLatency(options: PaymentLatencyOptions = {}): Promise<PaymentLatency> {
  const runs = options.runs ?? 30
  const own = options.target ? null : await startServer()
  const sandbox = options.target?.sandbox ?? own!.sandbox
  const baseUrl = options.target?.baseUrl ?? own!.url
  try {
    const info = sandbox.chain
    if (!info) throw new Error('the benchmark needs a sandbox with a chain')
    const chain = defineChain({
      id: info.chainId,
      name: 'sandbox',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [info.rpcUrl] } },
    })
    const account = privateKeyToAccount(info.accounts[options.account ?? 1]!.privateKey)
    const transport = http(info.rpcUrl)
    const publicClient = createPublicClient({ chain, transport, pollingInterval: 1 })
    const wallet = createWalletClient({ account, chain, transport })
    const apiKey = `bench_${Date.now().toString(36)}`
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${baseUrl}${path}`, {
        method,
        headers: { 'x-api-key': apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      })
      return (await res.json()) as {
        requestId: string
        hasBeenPaid?: boolean
        transactions: { to: Hex; data: Hex; value: { hex: Hex } }[]
      }
    }
    const receiptToPaid: number[] = []
    const createToPaid: number[] = []
    const reads: number[] = []
    for (let i = 0; i < runs; i++) {
      const start = performance.now()
      const created = await api('POST', '/v2/request', {
        amount: '1.5',
        invoiceCurrency: 'USDC-sepolia',
        paymentCurrency: 'USDC-sepolia',
        payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
      })
      const pay = await api('GET', `/v2/request/${created.requestId}/pay?wallet=${account.address}`)
      let hash: Hex = '0x'
      for (const tx of pay.transactions) {
        hash = await wallet.sendTransaction({ to: tx.to, data: tx.data, value: BigInt(tx.value.hex) })
        if (tx !== pay.transactions.at(-1))
          await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 1 })
      }
      await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 1 })
      const receiptAt = performance.now()
      let n = 0
      for (;;) {
        n++
        // Let I/O run between reads: through MSW a read never leaves the process, and a loop of them would
        // starve the chain's sockets (a client over a network never does).
        await new Promise((r) => setImmediate(r))
        const status = await api('GET', `/v2/request/${created.requestId}`)
        if (status.hasBeenPaid) break
        if (performance.now() - receiptAt > 10_000)
          throw new Error(
            `request ${created.requestId} never showed as paid: ${JSON.stringify(status).slice(0, 400)}`,
          )
      }
      const paidAt = performance.now()
      receiptToPaid.push(paidAt - receiptAt)
      createToPaid.push(paidAt - start)
      reads.push(n)
    }
    const r = [...receiptToPaid].sort((a, b) => a - b)
    const c = [...createToPaid].sort((a, b) => a - b)
    const n = [...reads].sort((a, b) => a - b)
    return {
      runs,
      receiptToPaid: {
        medianMs: round(percentile(r, 50)),
        p95Ms: round(percentile(r, 95)),
        maxMs: round(r.at(-1)!),
      },
      createToPaid: { medianMs: round(percentile(c, 50)), p95Ms: round(percentile(c, 95)) },
      readsAfterReceipt: { median: percentile(n, 50), max: n.at(-1)! },
    }
  } finally {
    await own?.close()
  }
}

/** One line per figure, as the benchmark prints them. */
export function formatPaymentLatency(result: PaymentLatency): string {
  return [
    `payment latency over ${result.runs} runs (create -> pay on chain -> visible as paid through the API)`,
    `  receipt -> hasBeenPaid: median ${result.receiptToPaid.medianMs} ms, p95 ${result.receiptToPaid.p95Ms} ms, max ${result.receiptToPaid.maxMs} ms`,
    `  create -> hasBeenPaid:  median ${result.createToPaid.medianMs} ms, p95 ${result.createToPaid.p95Ms} ms`,
    `  status reads after the receipt: median ${result.readsAfterReceipt.median}, max ${result.readsAfterReceipt.max}`,
  ].join('\n')
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const runs = Number(process.argv[2] ?? 30)
  measurePaymentLatency({ runs })
    .then((result) => console.log(formatPaymentLatency(result)))
    .catch((error) => {
      console.error(error)
      process.exitCode = 1
    })
}
