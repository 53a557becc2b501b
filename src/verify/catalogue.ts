// The flows verify runs against the real service and a sandbox. Only calls that are safe on a user's real account:
// reads, creates that are inert without a payment (requests on Sepolia, payment links, client IDs, webhooks to a URL
// the user gives), calldata reads (no transaction is ever sent), validation errors and authentication errors.
// Each flow says what it leaves on the real service; its `cleanup` steps delete or revoke what the service lets it.

/** The credentials a step is sent with: the user's (`default`), none, or a made-up invalid one. */
export type StepAuth = 'default' | 'none' | 'invalid'

/** What a flow or a step needs to run: an API key (client-ID mode skips it), or the user's webhook URL. */
export type Need = 'api-key' | 'webhook-url'

/**
 * One call of a flow. `path` and string values of `body` may hold placeholders: `{input.payee}` (the run's inputs:
 * `payee`, `webhookUrl`, `run`, a per-run word), `{<step>.<field>}` (a field of an earlier step's JSON answer on the
 * same side, dot-separated, array indexes as numbers). A string that is one placeholder takes the value's own type.
 */
export interface Step {
  name: string
  /** the operation as the documents name it: method and path template */
  operation: string
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  path: string
  body?: unknown
  auth?: StepAuth
  needs?: Need[]
  /** runs even when an earlier step could not: deletes or revokes what the flow created */
  cleanup?: boolean
  /**
   * A list of the whole account (client IDs, webhooks) holds objects verify did not make: only the items whose
   * `field` equals `equals` (a placeholder, resolved on each side) are compared.
   */
  pick?: { field: string; equals: string }
}

/** A flow: steps run in order on each side, each side's later steps built from its own earlier answers. */
export interface Flow {
  id: string
  summary: string
  /** what the flow leaves on the real service after its cleanup ("nothing" for reads and refused calls) */
  creates: string
  needs?: Need[]
  steps: Step[]
}

/** A request id no service has: 01 and 64 zeros. */
const UNKNOWN_REQUEST_ID = `01${'0'.repeat(64)}`

export const FLOWS: Flow[] = [
  {
    id: 'currencies',
    summary: 'the token list, filtered, one token and its conversion routes (v1 and v2)',
    creates: 'nothing',
    steps: [
      { name: 'list', operation: 'GET /v2/currencies', method: 'GET', path: '/v2/currencies' },
      {
        name: 'filter',
        operation: 'GET /v2/currencies',
        method: 'GET',
        path: '/v2/currencies?network=sepolia&symbol=FAU',
      },
      {
        name: 'first-only',
        operation: 'GET /v2/currencies',
        method: 'GET',
        path: '/v2/currencies?network=sepolia&symbol=FAU&firstOnly=true',
      },
      {
        name: 'conversion-routes',
        operation: 'GET /v2/currencies/{currencyId}/conversion-routes',
        method: 'GET',
        path: '/v2/currencies/FAU-sepolia/conversion-routes',
      },
      {
        name: 'list-v1',
        operation: 'GET /v1/currencies',
        method: 'GET',
        path: '/v1/currencies?network=sepolia&symbol=FAU',
        needs: ['api-key'],
      },
    ],
  },
  {
    id: 'request',
    summary: 'create a request on Sepolia, read it, its payment calldata and routes, search its payments',
    creates:
      'one request of 10 USD paid in Sepolia ETH, payee --payee (a request cannot be deleted; unpaid it moves nothing)',
    steps: [
      {
        name: 'create',
        operation: 'POST /v2/request',
        method: 'POST',
        path: '/v2/request',
        body: {
          payee: '{input.payee}',
          amount: '10',
          invoiceCurrency: 'USD',
          paymentCurrency: 'ETH-sepolia-sepolia',
          reference: 'request-sandbox verify {input.run}',
        },
      },
      {
        name: 'get',
        operation: 'GET /v2/request/{requestId}',
        method: 'GET',
        path: '/v2/request/{create.requestId}',
      },
      {
        name: 'pay-calldata',
        operation: 'GET /v2/request/{requestId}/pay',
        method: 'GET',
        path: '/v2/request/{create.requestId}/pay?wallet={input.payee}',
      },
      {
        name: 'routes',
        operation: 'GET /v2/request/{requestId}/routes',
        method: 'GET',
        path: '/v2/request/{create.requestId}/routes?wallet={input.payee}',
      },
      {
        name: 'payments',
        operation: 'GET /v2/payments',
        method: 'GET',
        path: '/v2/payments?requestId={create.requestId}',
      },
    ],
  },
  {
    id: 'request-v1',
    summary: 'the v1 twin: create a request, read it by payment reference, its payment calldata',
    creates: 'one request of 10 FAU on Sepolia, payee --payee (unpaid it moves nothing)',
    needs: ['api-key'],
    steps: [
      {
        name: 'create',
        operation: 'POST /v1/request',
        method: 'POST',
        path: '/v1/request',
        body: {
          payee: '{input.payee}',
          amount: '10',
          invoiceCurrency: 'FAU-sepolia',
          paymentCurrency: 'FAU-sepolia',
        },
      },
      {
        name: 'get',
        operation: 'GET /v1/request/{paymentReference}',
        method: 'GET',
        path: '/v1/request/{create.paymentReference}',
      },
      {
        name: 'pay-calldata',
        operation: 'GET /v1/request/{paymentReference}/pay',
        method: 'GET',
        path: '/v1/request/{create.paymentReference}/pay',
      },
    ],
  },
  {
    id: 'payout-calldata',
    summary: 'a payout: the request and the transactions to sign, none of them sent',
    creates: 'one request of 10 FAU on Sepolia, payee --payee (its transactions are returned, never sent)',
    steps: [
      {
        name: 'create',
        operation: 'POST /v2/payouts',
        method: 'POST',
        path: '/v2/payouts',
        body: {
          payee: '{input.payee}',
          amount: '10',
          invoiceCurrency: 'FAU-sepolia',
          paymentCurrency: 'FAU-sepolia',
        },
      },
      {
        name: 'get',
        operation: 'GET /v2/request/{requestId}',
        method: 'GET',
        path: '/v2/request/{create.requestId}',
      },
    ],
  },
  {
    id: 'payment-link',
    summary: 'a secure payment link, read as its page and as calldata for a wallet',
    creates: 'one secure payment link of 10 FAU on Sepolia to --payee (links cannot be deleted; they expire)',
    steps: [
      {
        name: 'create',
        operation: 'POST /v2/secure-payments',
        method: 'POST',
        path: '/v2/secure-payments',
        body: {
          requests: [
            {
              payee: '{input.payee}',
              amount: '10',
              invoiceCurrency: 'FAU-sepolia',
              paymentCurrency: 'FAU-sepolia',
            },
          ],
        },
      },
      {
        name: 'get',
        operation: 'GET /v2/secure-payments/{token}',
        method: 'GET',
        path: '/v2/secure-payments/{create.token}',
      },
      {
        name: 'pay-calldata',
        operation: 'GET /v2/secure-payments/{token}/pay',
        method: 'GET',
        path: '/v2/secure-payments/{create.token}/pay?wallet={input.payee}',
      },
    ],
  },
  {
    id: 'payee-destination',
    summary:
      'the typed data a wallet signs to register a payee destination (nothing is signed or registered)',
    creates: 'nothing (a signing nonce that expires unused)',
    steps: [
      {
        name: 'signing-data',
        operation: 'GET /v2/payee-destination/signing-data',
        method: 'GET',
        path: '/v2/payee-destination/signing-data?walletAddress={input.payee}&action=add&tokenAddress=0x370DE27fdb7D1Ff1e1BaA7D11c5820a324Cf623C&chainId=11155111',
      },
      {
        name: 'signing-data-bad-action',
        operation: 'GET /v2/payee-destination/signing-data',
        method: 'GET',
        path: '/v2/payee-destination/signing-data?walletAddress={input.payee}&action=steal&tokenAddress=0x370DE27fdb7D1Ff1e1BaA7D11c5820a324Cf623C&chainId=11155111',
      },
    ],
  },
  {
    id: 'client-ids',
    summary: 'create a client ID, list, read and rename it, then revoke it',
    creates: 'one client ID for https://verify.invalid, revoked at the end',
    needs: ['api-key'],
    steps: [
      {
        name: 'create',
        operation: 'POST /v2/client-ids',
        method: 'POST',
        path: '/v2/client-ids',
        body: { label: 'request-sandbox verify {input.run}', allowedDomains: ['https://verify.invalid'] },
      },
      {
        name: 'list',
        operation: 'GET /v2/client-ids',
        method: 'GET',
        path: '/v2/client-ids',
        pick: { field: 'id', equals: '{create.id}' },
      },
      {
        name: 'get',
        operation: 'GET /v2/client-ids/{id}',
        method: 'GET',
        path: '/v2/client-ids/{create.id}',
      },
      {
        name: 'rename',
        operation: 'PUT /v2/client-ids/{id}',
        method: 'PUT',
        path: '/v2/client-ids/{create.id}',
        body: { label: 'request-sandbox verify {input.run} renamed' },
      },
      {
        name: 'revoke',
        operation: 'DELETE /v2/client-ids/{id}',
        method: 'DELETE',
        path: '/v2/client-ids/{create.id}',
        cleanup: true,
      },
    ],
  },
  {
    id: 'webhooks',
    summary: 'register a webhook to --webhook-url, list it, delete it',
    creates: 'one webhook to --webhook-url, deleted at the end (only with --webhook-url)',
    needs: ['api-key', 'webhook-url'],
    steps: [
      {
        name: 'create',
        operation: 'POST /v2/webhook',
        method: 'POST',
        path: '/v2/webhook',
        body: { url: '{input.webhookUrl}' },
      },
      {
        name: 'list',
        operation: 'GET /v2/webhook',
        method: 'GET',
        path: '/v2/webhook',
        pick: { field: 'id', equals: '{create.id}' },
      },
      {
        name: 'delete',
        operation: 'DELETE /v2/webhook/{webhookId}',
        method: 'DELETE',
        path: '/v2/webhook/{create.id}',
        cleanup: true,
      },
    ],
  },
  {
    id: 'validation-errors',
    summary: 'refused calls: bad bodies, a bad query, unknown ids',
    creates: 'nothing (every call is refused)',
    steps: [
      {
        name: 'request-empty-body',
        operation: 'POST /v2/request',
        method: 'POST',
        path: '/v2/request',
        body: {},
      },
      {
        name: 'request-bad-payee',
        operation: 'POST /v2/request',
        method: 'POST',
        path: '/v2/request',
        body: {
          payee: 'not-an-address',
          amount: '10',
          invoiceCurrency: 'USD',
          paymentCurrency: 'ETH-sepolia-sepolia',
        },
      },
      {
        name: 'request-unknown',
        operation: 'GET /v2/request/{requestId}',
        method: 'GET',
        path: `/v2/request/${UNKNOWN_REQUEST_ID}`,
      },
      {
        name: 'payout-empty-body',
        operation: 'POST /v2/payouts',
        method: 'POST',
        path: '/v2/payouts',
        body: {},
      },
      {
        name: 'currencies-bad-first-only',
        operation: 'GET /v2/currencies',
        method: 'GET',
        path: '/v2/currencies?firstOnly=maybe',
      },
      {
        name: 'currency-unknown',
        operation: 'GET /v2/currencies',
        method: 'GET',
        path: '/v2/currencies?id=NOPE-sepolia',
      },
      {
        name: 'link-unknown',
        operation: 'GET /v2/secure-payments/{token}',
        method: 'GET',
        path: '/v2/secure-payments/verify-unknown-token',
      },
      {
        name: 'payer-unknown',
        operation: 'GET /v2/payer/{clientUserId}',
        method: 'GET',
        path: '/v2/payer/request-sandbox-verify-unknown-{input.run}',
        needs: ['api-key'],
      },
      {
        name: 'client-id-empty-body',
        operation: 'POST /v2/client-ids',
        method: 'POST',
        path: '/v2/client-ids',
        body: {},
        needs: ['api-key'],
      },
    ],
  },
  {
    id: 'auth-errors',
    summary: 'calls without credentials and with an invalid key',
    creates: 'nothing (every call is refused)',
    steps: [
      {
        name: 'no-credentials',
        operation: 'GET /v2/currencies',
        method: 'GET',
        path: '/v2/currencies',
        auth: 'none',
      },
      {
        name: 'invalid-key',
        operation: 'GET /v2/request/{requestId}',
        method: 'GET',
        path: `/v2/request/${UNKNOWN_REQUEST_ID}`,
        auth: 'invalid',
      },
      {
        name: 'create-no-credentials',
        operation: 'POST /v2/request',
        method: 'POST',
        path: '/v2/request',
        body: {
          payee: '{input.payee}',
          amount: '10',
          invoiceCurrency: 'USD',
          paymentCurrency: 'ETH-sepolia-sepolia',
        },
        auth: 'none',
      },
    ],
  },
]

/** The flows `--only` and `--skip` select (unknown ids are an error the caller reports). */
export function selectFlows(
  flows: Flow[],
  only: string[] | undefined,
  skip: string[] | undefined,
): { flows: Flow[]; unknown: string[] } {
  const ids = new Set(flows.map((f) => f.id))
  const unknown = [...(only ?? []), ...(skip ?? [])].filter((id) => !ids.has(id))
  const selected = flows.filter(
    (f) => (only === undefined || only.includes(f.id)) && !(skip ?? []).includes(f.id),
  )
  return { flows: selected, unknown }
}
