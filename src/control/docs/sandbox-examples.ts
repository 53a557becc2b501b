// The sandbox's own request-body examples, marked as such in /openapi.json (`x-sandbox-example`): for the
// sandbox's additions, whose schema-built example would be refused ("string" where an address is due), and for
// official operations whose published example the sandbox refuses, with the reason. Each one is sent as the
// docs page's try-it sends it by test/control/docs-try-it.test.ts, which proves no start is a validation refusal.

/** A sandbox example: the body, and why the sandbox gives its own. */
export interface SandboxExample {
  example: unknown
  reason: string
}

const payee = '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7'
const payer = '0x2e2E5C79F571ef1658d4C2d3684a1FE97DD30570'
const hash = `0x${'ab'.repeat(32)}`
const ADDITION = "The sandbox's own route: an example it accepts."

/** By "METHOD /openapi/path". */
export const sandboxExamples: Record<string, SandboxExample> = {
  'POST /v1/request': {
    example: {
      payee,
      amount: '10',
      invoiceCurrency: 'USD',
      paymentCurrency: 'ETH-sepolia-sepolia',
      recurrence: { startDate: '2030-01-01T00:00:00.000Z', frequency: 'DAILY' },
    },
    reason:
      "The service's example starts its recurrence on 2025-01-01, a date now past, which the service refuses too: a future start.",
  },
  'POST /v2/secure-payments/payouts': {
    example: {
      recipient: payee,
      creatorWalletAddress: payer,
      network: 'sepolia',
      currency: 'FAU-sepolia',
      amount: '10',
      recipientIdentifier: 'recipient-acme',
    },
    reason:
      "The service's example omits creatorWalletAddress, which its schema requires (the sandbox checks it).",
  },
  'POST /v2/secure-payments/batch-payouts': {
    example: {
      tokens: ['01JZ4PC7EXAMPLECHILD000001', '01JZ4PC7EXAMPLECHILD000002'],
      redirectUrl: 'https://example.com/paid',
      redirectLabel: 'Back to the shop',
    },
    reason: 'The document shows no example; its schema asks for at least two tokens and an absolute URL.',
  },
  'POST /v2/secure-payments/{token}/calldata': {
    example: { wallet: payer, chain: 'BASE', token: 'USDC' },
    reason: ADDITION,
  },
  ...Object.fromEntries(
    ['/v2/secure-payments/{token}/permit', '/__sandbox/secure-payments/{token}/permit'].map((path) => [
      `POST ${path}`,
      {
        // the payer's EIP-2612 signature of the /pay answer's approvalPermitPayload (65 bytes), and its deadline
        example: { wallet: payer, signature: `0x${'11'.repeat(64)}1b`, deadline: 1924992000 },
        reason: ADDITION,
      },
    ]),
  ),
  'POST /v2/secure-payments/{token}/refresh-step-transaction': {
    example: {
      step: {
        id: 'step-1',
        type: 'cross',
        tool: 'lifi',
        action: { toChainId: 8453, toAddress: payee },
      },
    },
    reason: 'The document shows no example; an address where its schema asks for one.',
  },
  'POST /v2/secure-payments/{token}/tron/broadcast': {
    example: tronBroadcast(),
    reason: 'The document shows no example; hex where its schema asks for hex.',
  },
  'POST /__sandbox/secure-payments/{token}/tron/broadcast': { example: tronBroadcast(), reason: ADDITION },
  'POST /__sandbox/secure-payments/{token}/user-events': {
    example: {
      userEvent: 'wallet_connected',
      walletAddress: payer,
      txHash: hash,
      occurredAt: '2026-01-01T00:00:00.000Z',
      walletProvider: 'metamask',
    },
    reason: ADDITION,
  },
  'POST /__sandbox/secure-payments/{token}/test-wallet/send': {
    example: { transaction: { to: payee, data: '0x', value: { hex: '0x0' } } },
    reason: ADDITION,
  },
  'POST /__sandbox/clock/advance': { example: { seconds: 3600 }, reason: ADDITION },
  'POST /__sandbox/rates': {
    example: { rates: [{ from: 'USD', to: 'FAU-sepolia', rate: '1' }] },
    reason: ADDITION,
  },
  'PUT /__sandbox/scenario': { example: { scenario: 'demo' }, reason: ADDITION },
  'POST /__sandbox/faucet': {
    example: { address: payer, currency: 'FAU-sepolia', amount: '100' },
    reason: ADDITION,
  },
  'POST /__sandbox/webhooks': {
    example: { url: 'https://example.com/webhooks/request', secret: 'ab'.repeat(32) },
    reason: ADDITION,
  },
  'POST /__sandbox/trigger': { example: { event: 'payment.confirmed' }, reason: ADDITION },
  'POST /v2/payee-destination': {
    example: { signature: `0x${'ab'.repeat(65)}`, nonce: 'example-nonce' },
    reason:
      'The document shows no example; a signature of the documented shape (0x and 130 hex characters), over a nonce from GET /v2/payee-destination/signing-data.',
  },
  'DELETE /v2/payee-destination/{destinationId}': {
    example: { signature: `0x${'ab'.repeat(65)}`, nonce: 'example-nonce' },
    reason:
      'The document shows no example; a signature of the documented shape (0x and 130 hex characters), over a nonce from the signing-data route.',
  },
  'POST /v1/auth/wallet/challenge': { example: { address: payer }, reason: ADDITION },
  'POST /v1/auth/wallet/verify': {
    example: {
      challengeId: 'example-challenge',
      nonce: 'example-nonce',
      message: 'Sign in to Request Network',
      signature: `0x${'ab'.repeat(65)}`,
    },
    reason: ADDITION,
  },
  ...Object.fromEntries(
    ['/v1/auth/register', '/v1/auth/login', '/v2/auth/register', '/v2/auth/login'].map((path) => [
      `POST ${path}`,
      {
        // one account per version (an email registers once)
        example: { email: `dev-${path.split('/')[1]}@example.com`, password: 'correct-horse-battery' },
        reason: 'The document shows no example; an email address and a password of at least 8 characters.',
      },
    ]),
  ),
  'POST /v2/commerce-payments/authorize/calldata': {
    example: {
      amount: '10',
      paymentCurrency: 'FAU-sepolia',
      payer,
      payee,
      maxAmount: '10',
      preApprovalExpiry: 86400,
      authorizationExpiry: 86400,
      refundExpiry: 604800,
      reference: 'order-1001',
      maxFeeBps: 100,
      feeReceiver: payee,
    },
    reason: ADDITION,
  },
  ...Object.fromEntries(
    ['capture/calldata', 'capture'].map((step) => [
      `POST /v2/commerce-payments/{requestId}/${step}`,
      { example: { amount: '10', feeBps: 0, feeReceiver: payee }, reason: ADDITION },
    ]),
  ),
  'POST /v2/commerce-payments/{requestId}/refund/calldata': { example: { amount: '10' }, reason: ADDITION },
}

/** Path parameters whose schema refuses a bare placeholder: a well-formed id the sandbox answers 404 for. */
export const sandboxPathExamples: Record<string, string> = {
  // a request ID's shape (01 and 64 hex characters), of no request
  'requestId@/v2/commerce-payments/': `01${'0'.repeat(64)}`,
}

function tronBroadcast() {
  return {
    signedTransaction: {
      raw_data_hex: '0a02',
      signature: ['ab'.repeat(65)],
      txID: 'ab'.repeat(32),
      raw_data: {
        contract: [
          {
            type: 'TriggerSmartContract',
            parameter: { type_url: 'type.googleapis.com/protocol.TriggerSmartContract', value: {} },
          },
        ],
        fee_limit: 100000000,
      },
    },
  }
}
