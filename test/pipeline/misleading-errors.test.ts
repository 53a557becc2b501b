// Errors and silences that mislead, said plainly (issue 31 item 10):
// - a `T…` address whose base58check checksum is wrong is refused as such, not as "expected an EVM (0x…) or Tron
//   (T…) address" (api-reference/secure-payments.mdx's "cURL (Tron payout)" sample carries one:
//   `creatorWalletAddress: TKb9mFPjUgCbrQpenCm4Z3T7ELNrLWurfm`);
// - a call with both `x-api-key` and `x-client-id` runs as the API key (api-reference/authentication.mdx lists the
//   two modes; the key is the server-side one), and says that the client ID was ignored: an `x-sandbox-hint`
//   header and the call's terminal log line.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { attachTerminalLog } from '../../src/terminal-log.ts'
import { TRON_CHECKSUM_MESSAGE } from '../../src/tron/index.ts'
import { describeTransports, newApiKey, startTransports, type Transports } from '../support/clients.ts'

let t: Transports
beforeAll(async () => {
  t = await startTransports(undefined, { chain: false })
})
afterAll(async () => t?.close())

/** The docs' Tron payout sample (api-reference/secure-payments.mdx), whose creatorWalletAddress fails its checksum. */
const DOCS_TRON_PAYOUT = {
  recipient: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8',
  creatorWalletAddress: 'TKb9mFPjUgCbrQpenCm4Z3T7ELNrLWurfm',
  network: 'tron',
  currency: 'USDT-tron',
  amount: '250',
  reference: 'INVOICE-2026-042',
}
/** payouts.mdx's Tron payee (a valid address) with its last character changed: only the checksum is wrong. */
const MISTYPED_TRON = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv9'

describeTransports(
  'misleading errors, said plainly, through %s',
  () => t,
  (client) => {
    it('refuses the docs’ Tron payout sample for its creatorWalletAddress checksum, naming the checksum', async () => {
      const res = await client().call('POST', '/v2/secure-payments/payouts', {
        apiKey: newApiKey(),
        body: DOCS_TRON_PAYOUT,
      })
      expect(res.status).toBe(400)
      expect(res.body.errors).toEqual([{ field: 'creatorWalletAddress', message: TRON_CHECKSUM_MESSAGE }])
      expect(TRON_CHECKSUM_MESSAGE).toMatch(/checksum/)
    })

    it('names the checksum of a mistyped T… payee on /v2/payouts (api-features/payouts.mdx) and on /pay', async () => {
      const apiKey = newApiKey()
      const payout = await client().call('POST', '/v2/payouts', {
        apiKey,
        body: {
          amount: '100',
          invoiceCurrency: 'USDT-tron',
          paymentCurrency: 'USDT-tron',
          payee: MISTYPED_TRON,
        },
      })
      expect(payout.status).toBe(400)
      expect(JSON.stringify(payout.body)).toContain(TRON_CHECKSUM_MESSAGE)
      // an address that is no address at all keeps the general message
      const garbage = await client().call('POST', '/v2/payouts', {
        apiKey,
        body: { amount: '100', invoiceCurrency: 'USDT-tron', paymentCurrency: 'USDT-tron', payee: 'Tnope' },
      })
      expect(JSON.stringify(garbage.body)).toContain('expected an EVM (0x…) or Tron (T…) address')
      const pay = await client().call('GET', `/v2/request/01${'a'.repeat(64)}/pay`, {
        apiKey,
        query: { wallet: MISTYPED_TRON },
      })
      expect(pay.status).toBe(400)
      expect(JSON.stringify(pay.body)).toContain(TRON_CHECKSUM_MESSAGE)
    })

    it('says so when x-client-id is sent beside x-api-key: header and terminal log line, the key still decides', async () => {
      const apiKey = newApiKey()
      const lines: string[] = []
      const detach = attachTerminalLog(t.sandbox, { format: 'text', write: (line) => lines.push(line) })
      try {
        const ids = await client().call('POST', '/v2/client-ids', {
          apiKey,
          body: { label: 'shop', allowedDomains: ['https://shop.example.com'] },
        })
        expect(ids.status).toBe(201)
        const body = {
          amount: '10',
          invoiceCurrency: 'FAU-sepolia',
          paymentCurrency: 'FAU-sepolia',
          payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
        }
        // an Origin the client ID does not allow: the client ID is not checked, the API key is used
        const both = await client().call('POST', '/v2/request', {
          apiKey,
          headers: { 'x-client-id': ids.body.clientId, origin: 'https://elsewhere.example.com' },
          body,
        })
        expect(both.status).toBe(201)
        const hint = both.headers.get('x-sandbox-hint')
        expect(hint).toMatch(/x-api-key and x-client-id were both sent: the API key was used/)
        expect(hint).toMatch(/client ID was ignored/)
        const keyOnly = await client().call('POST', '/v2/request', { apiKey, body })
        expect(keyOnly.headers.get('x-sandbox-hint')).toBeNull()
        const clientOnly = await client().call('POST', '/v2/request', {
          apiKey: null,
          headers: { 'x-client-id': ids.body.clientId, origin: 'https://shop.example.com' },
          body,
        })
        expect(clientOnly.status).toBe(201)
        expect(clientOnly.headers.get('x-sandbox-hint')).toBeNull()
        const logged = lines.filter((line) => line.includes(`key ${apiKey}`) && line.includes('/v2/request'))
        expect(logged).toHaveLength(3)
        expect(logged[0]).toContain(`(hint: ${hint})`)
        expect(logged.slice(1).some((line) => line.includes('hint:'))).toBe(false)
      } finally {
        await detach()
      }
    })
  },
)
