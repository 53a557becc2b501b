// Payloads of test sends (POST /v2/webhook/test): every field a receiver of the real event reads (the fields the
// sandbox's own events of that type carry), with placeholder values in the style of the service's test deliveries.
import type { IdGenerator } from '../store/ids.ts'
import type { WebhookEventType } from './schema.ts'

/** The webhook body of a test event of `type` at `now`. */
export function testPayload(type: WebhookEventType, ids: IdGenerator, now: Date): Record<string, unknown> {
  const requestId = `req_test${ids.hex(8)}`
  const paymentReference = `0x${ids.hex(8)}`
  const timestamp = now.toISOString()
  const txHash = `0x${ids.hex(32)}`
  const payer = '0x1234567890123456789012345678901234567890'
  const request = { requestId, requestID: requestId, paymentReference }
  const explorer = `https://scan.request.network/request/${requestId}`
  const payment = {
    ...request,
    explorer,
    timestamp,
    txHash,
    payerAddress: payer,
    payerEoaAddress: payer,
    payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
    network: 'sepolia',
    currency: 'FAU',
    paymentCurrency: 'FAU',
    isCryptoToFiat: false,
    subStatus: '',
    paymentProcessor: 'request-network',
    reference: 'ORDER-TEST-0001',
  }
  const userId = ids.uuid()
  const clientScoped = { clientId: `cli_test${ids.hex(8)}`, origin: 'https://shop.example.com' }
  const securePaymentToken = `01TEST${ids.hex(10).toUpperCase()}`
  switch (type) {
    case 'payment.confirmed.client_id':
    case 'payment.partial.client_id':
    case 'payment.confirmed.checkout':
    case 'payment.partial.checkout': {
      const base = testPayload(
        type.startsWith('payment.confirmed') ? 'payment.confirmed' : 'payment.partial',
        ids,
        now,
      )
      return {
        ...base,
        event: type,
        ...(type.endsWith('.client_id') ? clientScoped : { securePaymentToken }),
      }
    }
    case 'secure_payment.user_event':
      return {
        event: type,
        userEvent: 'payment_approved_in_wallet',
        securePaymentToken,
        requestId,
        requestIds: [requestId],
        orchestratorId: null,
        occurredAt: timestamp,
        timestamp,
        properties: {
          wallet_provider: 'injected',
          wallet_address_hashed: ids.hex(32),
          payment_type: 'single',
          selected_source_chain: 'sepolia',
          payment_submission_id: txHash,
          payment_submission_id_type: 'evm_tx_hash',
        },
      }
    case 'secure_payment.access_rejected':
      return { event: type, requestId, attemptedPayerWalletAddress: payer, timestamp }
    case 'payment.confirmed':
      return {
        event: type,
        ...payment,
        amount: '100.0',
        totalAmountPaid: '100.0',
        expectedAmount: '100.0',
        fees: [{ type: 'network', amount: '0.02', currency: 'ETH' }],
      }
    case 'payment.partial':
      return {
        event: type,
        ...payment,
        amount: '50.0',
        totalAmountPaid: '50.0',
        expectedAmount: '100.0',
        // the DOCS example lists no fee; a real partial payment lists its gas like any other
        fees: [{ type: 'network', amount: '0.01', currency: 'ETH' }],
      }
    case 'payment.failed':
      return {
        event: type,
        ...request,
        timestamp,
        subStatus: 'insufficient_funds',
        reason: 'The payer does not hold enough FAU',
        paymentProcessor: 'request-network',
      }
    case 'payment.processing': {
      const offrampId = `offramp_test${ids.hex(8)}`
      return {
        event: type,
        ...request,
        offrampId,
        timestamp,
        subStatus: 'initiated',
        paymentProcessor: 'request-tech',
        rawPayload: {
          id: offrampId,
          status: 'initiated',
          clientUserId: 'test-user@example.com',
          paymentDetailsId: ids.uuid(),
          cryptoAmount: '100',
          cryptoCurrency: 'USDC',
          fiatCurrency: 'EUR',
          txHash,
        },
      }
    }
    case 'payment.refunded':
      return {
        event: type,
        ...request,
        refundedTo: payer,
        refundAmount: '100.0',
        explorer,
        currency: 'FAU',
        paymentCurrency: 'FAU',
        network: 'sepolia',
        txHash,
        timestamp,
        paymentProcessor: 'request-network',
      }
    case 'request.recurring':
      return {
        event: type,
        ...request,
        originalRequestId: `req_test${ids.hex(8)}`,
        originalRequestPaymentReference: `0x${ids.hex(8)}`,
        timestamp,
      }
    case 'compliance.updated':
      return {
        event: type,
        clientUserId: 'test-user@example.com',
        kycStatus: 'approved',
        agreementStatus: 'completed',
        isCompliant: true,
        timestamp,
        rawPayload: {
          provider: 'request-sandbox',
          userId,
          trigger: 'test',
          previous: { agreementStatus: 'completed', kycStatus: 'pending' },
        },
      }
    case 'payment_detail.updated':
      return {
        event: type,
        paymentDetailsId: ids.uuid(),
        clientUserId: 'test-user@example.com',
        status: 'approved',
        timestamp,
        rawPayload: { provider: 'request-sandbox', userId, trigger: 'test', previousStatus: 'pending' },
      }
  }
}
