// Payloads of test sends (POST /v2/webhook/test): every documented field of the event, with placeholder
// values in the style of the service's own test deliveries (ids that match no real request).
import type { IdGenerator } from '../../store/ids.ts'
import type { WebhookEventType } from './schema.ts'

/** The webhook body of a test event of `type` at `now`. */
export function testPayload(type: WebhookEventType, ids: IdGenerator, now: Date): Record<string, unknown> {
  const requestId = `req_test${ids.hex(8)}`
  const paymentReference = `0x${ids.hex(8)}`
  const timestamp = now.toISOString()
  const request = { requestId, requestID: requestId, paymentReference }
  const payment = {
    ...request,
    explorer: `https://scan.request.network/request/${requestId}`,
    timestamp,
    txHash: `0x${ids.hex(32)}`,
    payerAddress: '0x1234567890123456789012345678901234567890',
    payerEoaAddress: null,
    network: 'sepolia',
    currency: 'FAU',
    paymentCurrency: 'FAU',
    isCryptoToFiat: false,
    subStatus: '',
    paymentProcessor: 'request-network',
  }
  switch (type) {
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
        fees: [],
      }
    case 'payment.failed':
      return { event: type, ...request, subStatus: 'insufficient_funds', paymentProcessor: 'request-network' }
    case 'payment.processing':
      return {
        event: type,
        ...request,
        offrampId: `offramp_test${ids.hex(8)}`,
        timestamp,
        subStatus: 'initiated',
        paymentProcessor: 'request-tech',
        rawPayload: {},
      }
    case 'payment.refunded':
      return { event: type, ...request, timestamp, paymentProcessor: 'request-network' }
    case 'request.recurring':
      return { event: type, ...request, originalRequestId: `req_test${ids.hex(8)}`, timestamp }
    case 'compliance.updated':
      return {
        event: type,
        clientUserId: 'test-user@example.com',
        kycStatus: 'approved',
        agreementStatus: 'completed',
        isCompliant: true,
        timestamp,
        rawPayload: {},
      }
    case 'payment_detail.updated':
      return {
        event: type,
        paymentDetailsId: ids.uuid(),
        clientUserId: 'test-user@example.com',
        status: 'approved',
        timestamp,
      }
  }
}
