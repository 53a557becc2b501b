// A tiny invoicing app, written the way an integrator writes one against the Request Network API: it creates
// invoices, fetches payment calldata, and keeps its invoices in sync from webhooks alone. Its webhook handler
// verifies signatures as easy-invoice does (HMAC of JSON.stringify of the parsed body, compared as text).
import { createHmac } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** An invoice as the app stores it. */
export interface Invoice {
  requestId: string
  paymentReference: string
  amount: string
  currency: string
  status: 'pending' | 'paid'
  txHash: string | null
}

/** How the app is configured (environment variables in a real deployment). */
/** What GET /v2/request/{id}/pay answers: the transactions the payer's wallet sends, and whether it can. */
export interface PayAnswer {
  transactions: { to: `0x${string}`; data: `0x${string}`; value: { type: 'BigNumber'; hex: `0x${string}` } }[]
  metadata: { hasEnoughBalance: boolean; needsApproval: boolean; [more: string]: unknown }
}

/** The fields of a webhook's body the app reads. */
interface WebhookBody {
  event: string
  requestId: string
  txHash: string | null
}

export interface InvoiceAppConfig {
  apiUrl: string
  apiKey: string
  webhookSecret: string
}

/** Creates the app; all its state lives in the returned object. */
export function createInvoiceApp(config: InvoiceAppConfig) {
  const invoices = new Map<string, Invoice>()
  const rejected: string[] = []

  async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${config.apiUrl}${path}`, {
      method,
      headers: { 'x-api-key': config.apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    })
    const json: unknown = await res.json()
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(json)}`)
    return json as T
  }

  return {
    invoices,
    /** signatures the handler refused */
    rejected,
    async createInvoice(input: { amount: string; currency: string; payee: string }): Promise<Invoice> {
      const created = await api<{ requestId: string; paymentReference: string }>('POST', '/v2/request', {
        amount: input.amount,
        invoiceCurrency: input.currency,
        paymentCurrency: input.currency,
        payee: input.payee,
      })
      const invoice: Invoice = {
        requestId: created.requestId,
        paymentReference: created.paymentReference,
        amount: input.amount,
        currency: input.currency,
        status: 'pending',
        txHash: null,
      }
      invoices.set(invoice.requestId, invoice)
      return invoice
    },
    /** The transactions the payer's wallet must send (GET /v2/request/{id}/pay). */
    paymentCalldata(requestId: string, wallet: string) {
      return api<PayAnswer>('GET', `/v2/request/${requestId}/pay?wallet=${wallet}`)
    },
    /** The app's POST /api/webhook route. */
    async handleWebhook(request: Request): Promise<Response> {
      const body = (await request.json()) as WebhookBody
      const signature = request.headers.get('x-request-network-signature')
      const expected = createHmac('sha256', config.webhookSecret).update(JSON.stringify(body)).digest('hex')
      if (signature !== expected) {
        rejected.push(String(body.event))
        return Response.json({ error: 'Invalid signature' }, { status: 401 })
      }
      if (request.headers.get('x-request-network-test') === 'true') return Response.json({ success: true })
      if (body.event === 'payment.confirmed') {
        const invoice = invoices.get(body.requestId)
        if (!invoice) return Response.json({ error: 'Invoice not found' }, { status: 404 })
        invoice.status = 'paid'
        invoice.txHash = body.txHash
      }
      return Response.json({ success: true })
    },
  }
}

/** Serves a webhook route over HTTP (for a sandbox running in another process). */
export async function serveWebhook(
  handle: (request: Request) => Promise<Response>,
): Promise<{ url: string; server: Server; received: Headers[] }> {
  const received: Headers[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', async () => {
      const headers = new Headers(req.headers as Record<string, string>)
      received.push(headers)
      const response = await handle(
        new Request('http://app.local/api/webhook', { method: 'POST', headers, body: Buffer.concat(chunks) }),
      )
      res.writeHead(response.status, { 'content-type': 'application/json' }).end(await response.text())
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/webhook`, server, received }
}
