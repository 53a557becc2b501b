// The MCP tools: what a developer's coding agent needs to test an integration against the sandbox. Each tool is one
// or a few calls of the sandbox's own API (src/mcp/api.ts) as the session's key: it reaches only that key's objects,
// and every bound of the API applies. An API refusal comes back as a tool error (isError) with the API's message.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import { type ApiAnswer, type ApiCall, errorMessage } from './api.ts'

/** A tool's answer: the API's JSON as text. */
const ok = (body: unknown): CallToolResult => ({
  content: [{ type: 'text', text: typeof body === 'string' ? body : JSON.stringify(body, null, 1) }],
})

/** A tool error carrying the API's message. */
const failed = (message: string): CallToolResult => ({
  content: [{ type: 'text', text: message }],
  isError: true,
})

/** Thrown inside a tool: an API answer that is not a success. */
class ApiRefused extends Error {}

/** The answer's body, or ApiRefused with its message. */
function expectOk(answer: ApiAnswer): unknown {
  if (answer.status >= 400) throw new ApiRefused(errorMessage(answer))
  return answer.body
}

/** Runs a tool's calls; an API refusal or a failed connection is a tool error, never a protocol error. */
async function run(work: () => Promise<unknown>): Promise<CallToolResult> {
  try {
    return ok(await work())
  } catch (error) {
    if (error instanceof ApiRefused) return failed(error.message)
    return failed(`The sandbox could not be reached: ${(error as Error).message}`)
  }
}

const extra = z
  .record(z.string(), z.unknown())
  .optional()
  .describe('any other documented field of the API body, as is')
const currency = (what: string) => z.string().min(1).describe(`${what} currency id, e.g. FAU-sepolia or USD`)
const amount = z.string().min(1).describe('a decimal amount in the invoice currency, e.g. "10.5"')
const address = (what: string) => z.string().min(1).describe(`${what} (0x… address)`)
const name = z.string().min(1).max(64).describe('the snapshot name')

/** A transaction of a /pay answer. */
interface PayTransaction {
  to: string
  data: string
  value: unknown
}
interface PayAnswer {
  transactions?: PayTransaction[]
  ERC20ApprovalTransactions?: PayTransaction[]
  orchestratorFeeTransactions?: PayTransaction[]
  batchPaymentTransaction?: PayTransaction
  metadata?: { paymentTransactionIndex?: number }
}

/** The transactions of a link's /pay answer in the order the page sends them. */
function inOrder(pay: PayAnswer): { tx: PayTransaction; payment: boolean }[] {
  if (pay.transactions) {
    const index = pay.metadata?.paymentTransactionIndex ?? pay.transactions.length - 1
    return pay.transactions.map((tx, i) => ({ tx, payment: i === index }))
  }
  return [
    ...(pay.ERC20ApprovalTransactions ?? []).map((tx) => ({ tx, payment: false })),
    ...(pay.orchestratorFeeTransactions ?? []).map((tx) => ({ tx, payment: false })),
    ...(pay.batchPaymentTransaction ? [{ tx: pay.batchPaymentTransaction, payment: true }] : []),
  ]
}

/** Pays a secure payment link as its page does with the key's own test wallet (the link owner's). */
async function payLink(api: ApiCall, token: string) {
  const link = `/__sandbox/secure-payments/${encodeURIComponent(token)}`
  const chain = expectOk(await api('GET', `${link}/chain`)) as { testWallet: string | null; tron?: boolean }
  if (chain.tron) throw new ApiRefused('400: the pay tool pays EVM links; pay a Tron link from its page')
  if (!chain.testWallet) throw new ApiRefused("400: the link's network does not run in this sandbox")
  const wallet = chain.testWallet
  const event = (userEvent: string, txHash?: string) =>
    api('POST', `${link}/user-events`, { userEvent, walletAddress: wallet, ...(txHash ? { txHash } : {}) })
  expectOk(await event('wallet_connected'))
  const pay = await api('GET', `${link}/pay`, undefined, { wallet })
  if (pay.status === 409) return { paid: true, already: true, wallet }
  const txHashes: string[] = []
  for (const step of inOrder(expectOk(pay) as PayAnswer)) {
    if (step.payment) expectOk(await event('payment_sent_to_wallet'))
    const sent = expectOk(await api('POST', `${link}/test-wallet/send`, { transaction: step.tx })) as {
      txHash: string
    }
    txHashes.push(sent.txHash)
    if (step.payment) expectOk(await event('payment_approved_in_wallet', sent.txHash))
  }
  return { paymentLinkToken: token, wallet, txHashes }
}

/** Builds the MCP server whose tools call `api` (one key). */
export function buildMcpServer(api: ApiCall, version: string): McpServer {
  const server = new McpServer(
    { name: 'request-sandbox', version },
    {
      instructions:
        'Tools of a Request Network API sandbox with a real local chain. Create a request, payout or payment link, pay it (real transactions on the local chain), advance the clock, trigger events, and read webhook deliveries and recent calls. Every tool acts as one API key: its own objects only.',
    },
  )
  const tool = server.registerTool.bind(server)

  tool(
    'create_request',
    {
      description:
        'Creates a payment request (POST /v2/request). Answers its requestId and paymentReference; pay it with the pay tool.',
      inputSchema: {
        amount,
        invoiceCurrency: currency('the invoice'),
        paymentCurrency: currency('the payment'),
        payee: address('who is paid'),
        reference: z.string().min(1).max(255).optional().describe('your invoice reference'),
        extra,
      },
    },
    ({ extra, ...body }) =>
      run(async () => expectOk(await api('POST', '/v2/request', { ...extra, ...body }))),
  )

  tool(
    'create_payout',
    {
      description:
        'Creates a payout (POST /v2/payouts): a request and the transactions its payer sends. Answers its requestId; pay it with the pay tool.',
      inputSchema: {
        amount,
        invoiceCurrency: currency('the invoice'),
        paymentCurrency: currency('the payment'),
        payee: address('who is paid'),
        payerWallet: address('the paying wallet').optional(),
        reference: z.string().min(1).max(255).optional(),
        extra,
      },
    },
    ({ extra, ...body }) =>
      run(async () => expectOk(await api('POST', '/v2/payouts', { ...extra, ...body }))),
  )

  tool(
    'create_payment_link',
    {
      description:
        'Creates a secure payment link (POST /v2/secure-payments): a hosted page a payer opens. Answers its token and URL; pay it with the pay tool.',
      inputSchema: {
        requests: z
          .array(
            z.object({
              payee: address('who is paid'),
              amount,
              invoiceCurrency: currency('the invoice'),
              paymentCurrency: currency('the payment'),
            }),
          )
          .min(1)
          .max(200),
        reference: z.string().min(1).max(255).optional(),
        extra,
      },
    },
    ({ extra, ...body }) =>
      run(async () => expectOk(await api('POST', '/v2/secure-payments', { ...extra, ...body }))),
  )

  tool(
    'get',
    {
      description:
        'Reads a request or payout (GET /v2/request/{requestId}: status, payments) or a payment link (GET /v2/secure-payments/{token}; a completed link answers 409, as the API does). Give exactly one of requestId and paymentLinkToken.',
      inputSchema: {
        requestId: z.string().min(1).optional(),
        paymentLinkToken: z.string().min(1).optional(),
      },
    },
    ({ requestId, paymentLinkToken }) =>
      run(async () => {
        if ((requestId === undefined) === (paymentLinkToken === undefined))
          throw new ApiRefused('400: give exactly one of requestId and paymentLinkToken')
        return expectOk(
          await api(
            'GET',
            requestId
              ? `/v2/request/${encodeURIComponent(requestId)}`
              : `/v2/secure-payments/${encodeURIComponent(paymentLinkToken!)}`,
          ),
        )
      }),
  )

  tool(
    'pay',
    {
      description:
        "Pays a request or payout (by requestId: a new wallet funded on the local chain pays through /pay, as POST /__sandbox/trigger payment.confirmed does; part 'half' pays half) or a payment link (by paymentLinkToken: the key's own test wallet sends the link's transactions, as its page's test wallet does). The transactions execute on the chain and the answer comes once the payment is detected.",
      inputSchema: {
        requestId: z.string().min(1).optional(),
        paymentLinkToken: z.string().min(1).optional(),
        part: z.enum(['full', 'half']).optional().describe('requests only: full (default) or half'),
      },
    },
    ({ requestId, paymentLinkToken, part }) =>
      run(async () => {
        if ((requestId === undefined) === (paymentLinkToken === undefined))
          throw new ApiRefused('400: give exactly one of requestId and paymentLinkToken')
        if (paymentLinkToken) return payLink(api, paymentLinkToken)
        const event = part === 'half' ? 'payment.partial' : 'payment.confirmed'
        return expectOk(await api('POST', '/__sandbox/trigger', { event, requestId }))
      }),
  )

  tool(
    'advance_clock',
    {
      description:
        "Moves the key's clock forward by seconds or to an ISO time (POST /__sandbox/clock/advance): due dates, recurring payments and timed reviews run; the chains' time follows.",
      inputSchema: {
        seconds: z.number().int().positive().optional(),
        to: z.string().min(1).optional().describe('an ISO 8601 time or YYYY-MM-DD date'),
      },
    },
    ({ seconds, to }) =>
      run(async () => {
        if ((seconds === undefined) === (to === undefined))
          throw new ApiRefused('400: give exactly one of seconds and to')
        return expectOk(await api('POST', '/__sandbox/clock/advance', seconds ? { seconds } : { to }))
      }),
  )

  tool(
    'list_scenarios',
    {
      description:
        'Every scenario (GET /__sandbox/scenarios): name, description, rules, and the one selected.',
    },
    () => run(async () => expectOk(await api('GET', '/__sandbox/scenarios'))),
  )

  tool(
    'choose_scenario',
    {
      description:
        'Switches the key to a scenario (PUT /__sandbox/scenario), seeded on first use: failures, KYC outcomes, rate limits, seeded data.',
      inputSchema: { scenario: z.string().min(1) },
    },
    ({ scenario }) => run(async () => expectOk(await api('PUT', '/__sandbox/scenario', { scenario }))),
  )

  tool(
    'trigger_event',
    {
      description:
        'Makes an event happen for real (POST /__sandbox/trigger), e.g. payment.confirmed, payment.partial, payment.processing, compliance.updated, payment_detail.updated, request.recurring, payout.recurring, payment.confirmed.checkout; an unknown name answers the list. requestId / clientUserId act on an existing object.',
      inputSchema: {
        event: z.string().min(1),
        requestId: z.string().min(1).optional(),
        clientUserId: z.string().min(1).optional(),
        overrides: z
          .record(z.string(), z.unknown())
          .optional()
          .describe('dot paths of the created body and their values, e.g. {"amount": "25"}'),
      },
    },
    (body) => run(async () => expectOk(await api('POST', '/__sandbox/trigger', body))),
  )

  tool(
    'register_webhook',
    {
      description:
        "Registers a webhook URL for the key (POST /__sandbox/webhooks); the answer holds the signing secret. The sandbox's destination rules apply.",
      inputSchema: {
        url: z.string().min(1),
        secret: z.string().optional().describe('64 lower-case hex characters to pin the signing secret'),
      },
    },
    (body) => run(async () => expectOk(await api('POST', '/__sandbox/webhooks', body))),
  )

  tool(
    'list_webhook_deliveries',
    {
      description:
        "The key's webhook deliveries, newest first (GET /__sandbox/webhooks/deliveries): the event, its payload, and each attempt with the receiver's answer (status, body).",
      inputSchema: { limit: z.number().int().min(1).max(500).optional().describe('newest N (default 20)') },
    },
    ({ limit }) =>
      run(async () => {
        const all = expectOk(await api('GET', '/__sandbox/webhooks/deliveries')) as unknown[]
        return all.slice(0, limit ?? 20)
      }),
  )

  tool(
    'tail_calls',
    {
      description:
        "The key's recent API calls, events and webhook attempts, newest first (GET /__sandbox/journal): method, path, status, bodies.",
      inputSchema: {
        limit: z.number().int().min(1).max(200).optional().describe('newest N (default 20)'),
        type: z
          .string()
          .regex(/^(call|event|delivery)(,(call|event|delivery))*$/)
          .optional()
          .describe('a comma list of call, event, delivery'),
      },
    },
    ({ limit, type }) =>
      run(async () =>
        expectOk(
          await api('GET', '/__sandbox/journal', undefined, {
            limit: String(limit ?? 20),
            ...(type ? { type } : {}),
          }),
        ),
      ),
  )

  tool(
    'save_snapshot',
    {
      description: "Saves the key's state under a name (POST /__sandbox/snapshots); restore it later.",
      inputSchema: { name },
    },
    ({ name }) => run(async () => expectOk(await api('POST', '/__sandbox/snapshots', { name }))),
  )

  tool(
    'restore_snapshot',
    {
      description:
        "Puts the key's state back as a snapshot holds it (POST /__sandbox/snapshots/{name}/restore).",
      inputSchema: { name },
    },
    ({ name }) =>
      run(async () =>
        expectOk(await api('POST', `/__sandbox/snapshots/${encodeURIComponent(name)}/restore`)),
      ),
  )

  tool('list_snapshots', { description: "The key's snapshots (GET /__sandbox/snapshots)." }, () =>
    run(async () => expectOk(await api('GET', '/__sandbox/snapshots'))),
  )

  tool(
    'reset',
    {
      description:
        "Drops the key's state (POST /__sandbox/reset): every request, payment and payer, the journal; webhooks and the scenario choice stay.",
    },
    () => run(async () => expectOk(await api('POST', '/__sandbox/reset'))),
  )

  return server
}
