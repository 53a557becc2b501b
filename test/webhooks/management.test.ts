// Webhook management as the service's API has it (FULL /v1|v2/webhook), per key.

import { afterAll, beforeAll, expect, it } from 'vitest'
import { WEBHOOK_EVENT_TYPES } from '../../src/webhooks/index.ts'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'
import type { Loose } from '../support/loose.ts'
import { assertMatchesDocument, documents } from '../support/openapi.ts'
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts'

const t = useTransports(newApiKey, { chain: false, webhooks: { retryDelaysMs: [] } })
let receiver: WebhookReceiver
beforeAll(async () => {
  receiver = await startReceiver()
})
afterAll(async () => receiver?.close())

const documentedEnumError = (documents.full as Loose).paths['/v2/webhook/test'].post.responses['400'].content[
  'application/json'
].examples.invalidEventType.value

describeTransports(
  'webhook management through %s',
  () => t,
  (client) => {
    it('registers a URL: 201 with a ULID id and a 64-hex secret, listed with isActive and createdAt', async () => {
      const apiKey = newApiKey()
      const created = await client().call('POST', '/v2/webhook', {
        apiKey,
        body: { url: 'https://example.com/webhook' },
      })
      expect(created.status).toBe(201)
      assertMatchesDocument('full', 'POST', '/v2/webhook', 201, created.body)
      expect(created.body.id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/)
      expect(created.body.secret).toMatch(/^[0-9a-f]{64}$/)
      const list = await client().call('GET', '/v2/webhook', { apiKey })
      expect(list.status).toBe(200)
      assertMatchesDocument('full', 'GET', '/v2/webhook', 200, list.body)
      expect(list.body).toEqual([
        {
          id: created.body.id,
          url: 'https://example.com/webhook',
          secret: created.body.secret,
          isActive: true,
          createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        },
      ])
      const v1 = await client().call('GET', '/v1/webhook', { apiKey })
      expect(v1.body).toEqual(list.body)
    })

    it('answers 400 Webhook already exists for a URL the key registered', async () => {
      const apiKey = newApiKey()
      await client().call('POST', '/v2/webhook', { apiKey, body: { url: 'https://example.com/a' } })
      const again = await client().call('POST', '/v2/webhook', {
        apiKey,
        body: { url: 'https://example.com/a' },
      })
      expect(again.status).toBe(400)
      expect(again.body).toEqual({ statusCode: 400, message: 'Webhook already exists', error: 'Bad Request' })
      const otherKey = await client().call('POST', '/v2/webhook', { body: { url: 'https://example.com/a' } })
      expect(otherKey.status).toBe(201)
    })

    it.each([
      [
        {},
        {
          code: 'invalid_type',
          expected: 'string',
          received: 'undefined',
          path: ['url'],
          message: 'Required',
        },
      ],
      [
        { url: 42 },
        {
          code: 'invalid_type',
          expected: 'string',
          received: 'number',
          path: ['url'],
          message: 'Expected string, received number',
        },
      ],
      [
        { url: 'not a url' },
        { validation: 'url', code: 'invalid_string', message: 'Invalid url', path: ['url'] },
      ],
      [
        { url: 'ftp://example.com/x' },
        { validation: 'url', code: 'invalid_string', message: 'Invalid url', path: ['url'] },
      ],
      [
        { url: 'javascript:alert(1)' },
        { validation: 'url', code: 'invalid_string', message: 'Invalid url', path: ['url'] },
      ],
      [
        { url: 'https://user:secret@example.com/hook' },
        {
          validation: 'url',
          code: 'invalid_string',
          message: 'Invalid url: credentials (user:password@) are not allowed in a webhook URL',
          path: ['url'],
        },
      ],
    ])('rejects a bad registration body %o with the zod issue list', async (body, issue) => {
      const res = await client().call('POST', '/v2/webhook', { body })
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ statusCode: 400, message: [issue], error: 'Bad Request' })
    })

    it('toggles and deletes a webhook; another key gets 404 for it', async () => {
      const apiKey = newApiKey()
      const created = await client().call('POST', '/v2/webhook', {
        apiKey,
        body: { url: 'https://example.com/t' },
      })
      const path = `/v2/webhook/${created.body.id}`
      expect((await client().call('PUT', path, { apiKey: newApiKey() })).status).toBe(404)
      expect((await client().call('DELETE', path, { apiKey: newApiKey() })).body).toEqual({
        statusCode: 404,
        message: 'Webhook not found',
        error: 'Not Found',
      })
      expect((await client().call('PUT', path, { apiKey })).status).toBe(200)
      expect((await client().call('GET', '/v2/webhook', { apiKey })).body[0].isActive).toBe(false)
      expect((await client().call('PUT', path, { apiKey })).status).toBe(200)
      expect((await client().call('GET', '/v2/webhook', { apiKey })).body[0].isActive).toBe(true)
      expect((await client().call('DELETE', path, { apiKey })).status).toBe(200)
      expect((await client().call('GET', '/v2/webhook', { apiKey })).body).toEqual([])
      expect((await client().call('DELETE', path, { apiKey })).status).toBe(404)
    })

    it('rejects an unknown test event type with exactly the documented invalid_enum_value body', async () => {
      const res = await client().call('POST', '/v2/webhook/test', { body: { eventType: 'invalid.event' } })
      expect(res.status).toBe(400)
      assertMatchesDocument('full', 'POST', '/v2/webhook/test', 400, res.body)
      // FULL's example lists 8 types; the newer pages (api-reference/webhooks.mdx) test every documented type: the
      // example's 8, in its order, then the client-ID, checkout and secure-payment ones
      const [issue] = res.body.message
      const [documentedIssue] = documentedEnumError.message
      expect(issue.options.slice(0, documentedIssue.options.length)).toEqual(documentedIssue.options)
      expect(issue.options).toEqual([...WEBHOOK_EVENT_TYPES])
      expect(res.body).toEqual({
        ...documentedEnumError,
        message: [
          {
            ...documentedIssue,
            options: [...WEBHOOK_EVENT_TYPES],
            message: documentedIssue.message.replace(
              /Expected .*, received/,
              `Expected ${WEBHOOK_EVENT_TYPES.map((t) => `'${t}'`).join(' | ')}, received`,
            ),
          },
        ],
      })
      const missing = await client().call('POST', '/v2/webhook/test', { body: {} })
      expect(missing.body.message).toEqual([
        {
          code: 'invalid_type',
          expected: 'string',
          received: 'undefined',
          path: ['eventType'],
          message: 'Required',
        },
      ])
    })

    it('answers 404 No active webhooks found when the key has none active, and sends a test when it has', async () => {
      const apiKey = newApiKey()
      const none = await client().call('POST', '/v2/webhook/test', {
        apiKey,
        body: { eventType: 'payment.confirmed' },
      })
      expect(none.status).toBe(404)
      expect(none.body).toEqual({ statusCode: 404, message: 'No active webhooks found', error: 'Not Found' })
      const created = await client().call('POST', '/v2/webhook', { apiKey, body: { url: receiver.url } })
      await client().call('PUT', `/v2/webhook/${created.body.id}`, { apiKey })
      const disabled = await client().call('POST', '/v2/webhook/test', {
        apiKey,
        body: { eventType: 'payment.confirmed' },
      })
      expect(disabled.status).toBe(404)
      await client().call('PUT', `/v2/webhook/${created.body.id}`, { apiKey })
      receiver.secret = created.body.secret
      const before = receiver.received.length
      const sent = await client().call('POST', '/v2/webhook/test', {
        apiKey,
        body: { eventType: 'payment.confirmed' },
      })
      expect(sent.status).toBe(201)
      expect(sent.body.deliveryIds).toHaveLength(1)
      const [got] = (await receiver.waitFor(before + 1)).slice(before)
      expect(got!.signatureValid).toBe(true)
      expect(got!.headers['x-request-network-test']).toBe('true')
      expect(got!.headers['x-request-network-delivery']).toBe(sent.body.deliveryIds[0])
    })
  },
)
