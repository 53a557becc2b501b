import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { signWebhook, webhookBody } from './delivery.ts'

describe('webhook bodies and signatures', () => {
  it('signs with lower-case hex HMAC-SHA256 of the exact bytes, keyed with the secret as text', () => {
    const secret = '9f8688812f6abb01ee7a36934ab10cabab4498a24d2dc080f900ced57617713c'
    const body = '{"event":"payment.confirmed","amount":"100.0"}'
    expect(signWebhook(body, secret)).toBe(
      createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex'),
    )
    expect(signWebhook(body, secret)).toMatch(/^[0-9a-f]{64}$/)
    expect(signWebhook(`${body} `, secret)).not.toBe(signWebhook(body, secret))
  })

  it('writes compact JSON that re-serialises to the same bytes, with both requestId and requestID', () => {
    const body = webhookBody({
      event: 'payment.partial',
      requestId: '01ab',
      note: 'é/"x"',
      amount: '50.0',
      fees: [],
    })
    expect(body).toBe(JSON.stringify(JSON.parse(body)))
    expect(JSON.parse(body)).toMatchObject({ requestId: '01ab', requestID: '01ab' })
    expect(JSON.parse(webhookBody({ requestID: 'x' }))).toEqual({ requestID: 'x', requestId: 'x' })
    expect(JSON.parse(webhookBody({ clientUserId: 'u' }))).toEqual({ clientUserId: 'u' })
  })
})
