// A checkout widget's sale (easy-invoice A28): a request created with a client ID and its Origin, paid on chain,
// announces payment.confirmed with that clientId and origin (how the app records the sale), plus the DOCS'
// `payment.confirmed.client_id` variant sent in addition; a request made with the API key carries neither.
import { expect, it } from 'vitest'
import { execute, freshAddress, until } from '../support/chain.ts'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'

const t = useTransports()

const shop = 'https://shop.example.com'

describeTransports(
  'a client-ID sale through %s',
  () => t,
  { http: 11, msw: 12 },
  (client, account) => {
    it('carries clientId and origin in payment.confirmed and sends payment.confirmed.client_id too', async () => {
      const apiKey = newApiKey()
      const created = await client().call('POST', '/v2/client-ids', {
        apiKey,
        body: { label: 'checkout', allowedDomains: [shop] },
      })
      const { clientId } = created.body as { clientId: string }
      const widget = { apiKey: null, headers: { 'x-client-id': clientId, origin: shop } }
      const payee = freshAddress()
      const sale = await client().call('POST', '/v2/payouts', {
        ...widget,
        body: {
          amount: '3',
          invoiceCurrency: 'FAU-sepolia',
          paymentCurrency: 'FAU-sepolia',
          payee,
          reference: 'order-7',
          payerWallet: t.sandbox.chain!.accounts[account % 10]!.address,
        },
      })
      expect(sale.status).toBe(201)
      const byKey = await client().call('POST', '/v2/request', {
        apiKey,
        body: { amount: '1', invoiceCurrency: 'FAU-sepolia', paymentCurrency: 'FAU-sepolia', payee },
      })
      const keyPay = await client().call('GET', `/v2/request/${byKey.body.requestId}/pay`, { apiKey })
      await execute(t.sandbox, sale.body.transactions, account % 10)
      await execute(t.sandbox, keyPay.body.transactions, account % 10)
      const world = t.sandbox.shared.tenants.get(apiKey)
      const { value: events } = await until(
        async () => world.events,
        (list) => list.filter((e) => e.type === 'payment.confirmed').length === 2,
      )
      const confirmed = events.filter((e) => e.type === 'payment.confirmed')
      const widgetSale = confirmed.find((e) => e.payload.requestId === sale.body.requestId)!
      expect(widgetSale.payload).toMatchObject({
        clientId,
        origin: shop,
        reference: 'order-7',
        currency: 'FAU',
        network: 'sepolia',
      })
      const variant = events.filter((e) => e.type === 'payment.confirmed.client_id')
      expect(variant).toHaveLength(1)
      expect(variant[0]!.payload).toMatchObject({
        event: 'payment.confirmed.client_id',
        requestId: sale.body.requestId,
        clientId,
        origin: shop,
      })
      const keySale = confirmed.find((e) => e.payload.requestId === byKey.body.requestId)!
      expect(keySale.payload).not.toHaveProperty('clientId')
    })
  },
)
