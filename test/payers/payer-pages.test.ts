// The compliance flow after creation: the agreement and KYC pages behind the links, and forced transitions.
import { expect, it } from 'vitest'
import { advance } from '../support/chain.ts'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'
import { createPayer, postJson } from '../support/compliance.ts'

const t = useTransports(newApiKey, { chain: false })

const complianceEvents = (apiKey: string) =>
  t.sandbox.shared.tenants
    .get(apiKey)
    .events.filter((e) => e.type === 'compliance.updated')
    .map((e) => e.payload)
// the values easy-invoice's status card and webhook handler accept (A21, A29)
const accepted = {
  kycStatus: ['not_started', 'initiated', 'pending', 'approved'],
  agreementStatus: ['not_started', 'pending', 'completed'],
}

describeTransports(
  'agreement and KYC pages, and forced transitions, through %s',
  () => t,
  (client) => {
    it('serves an agreement page that signs the agreement and posts {agreements: "complete"} to its parent', async () => {
      const apiKey = newApiKey()
      const { agreementUrl } = await createPayer(client(), apiKey)
      const page = await fetch(agreementUrl)
      expect(page.status).toBe(200)
      expect(page.headers.get('content-type')).toMatch(/^text\/html/)
      // embeddable (the service's agreement page is an iframe), running only its own script file
      expect(page.headers.get('content-security-policy')).toContain('frame-ancestors *')
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
      const html = await page.text()
      expect(html).not.toMatch(/<script>|<style>|\son\w+=/)
      const script = await fetch(new URL('../page.js', agreementUrl))
      expect(script.headers.get('content-type')).toMatch(/^text\/javascript/)
      // the bundle of page/ui/main.ts (minified: the call, not its spacing)
      expect(await script.text()).toMatch(
        /window\.parent\.postMessage\(\{\s*agreements:\s*["']complete["']\s*\},\s*["']\*["']\)/,
      )
      expect(html).toContain('John Doe')
      const signed = await postJson(agreementUrl, { agreementCompleted: true })
      expect(signed).toEqual({
        status: 200,
        body: { agreementStatus: 'completed', kycStatus: 'initiated', isCompliant: false },
      })
      const patch = await client().call('PATCH', '/v2/payer/john.doe%40example.com', {
        apiKey,
        body: { agreementCompleted: true },
      })
      expect(patch.status).toBe(200)
    })

    it('runs KYC through its page: submitted, then approved after the configured delay on the tenant clock', async () => {
      const apiKey = newApiKey()
      const { kycUrl } = await createPayer(client(), apiKey)
      await client().call('PATCH', '/v2/payer/john.doe%40example.com', {
        apiKey,
        body: { agreementCompleted: true },
      })
      const page = await (await fetch(kycUrl)).text()
      expect(page).toContain('id="submit"')
      expect((await postJson(kycUrl, { action: 'submit' })).body.kycStatus).toBe('pending')
      await advance(client(), apiKey, 4)
      let read = await client().call('GET', '/v2/payer/john.doe%40example.com', { apiKey })
      expect(read.body.kycStatus).toBe('pending')
      await advance(client(), apiKey, 1)
      read = await client().call('GET', '/v2/payer/john.doe%40example.com', { apiKey })
      expect(read.body).toMatchObject({
        kycStatus: 'approved',
        agreementStatus: 'completed',
        isCompliant: true,
      })
      const events = complianceEvents(apiKey)
      expect(events.map((e) => e.kycStatus)).toEqual(['not_started', 'initiated', 'pending', 'approved'])
      expect(events.at(-1)).toMatchObject({ isCompliant: true })
      for (const e of events) {
        expect(accepted.kycStatus).toContain(e.kycStatus)
        expect(accepted.agreementStatus).toContain(e.agreementStatus)
      }
    })

    it('rejects KYC on its page; the payer must retry (retry_required) before being approved', async () => {
      const apiKey = newApiKey()
      const { kycUrl, agreementUrl } = await createPayer(client(), apiKey)
      await postJson(agreementUrl, {})
      expect((await postJson(kycUrl, { action: 'reject' })).body.kycStatus).toBe('rejected')
      const resubmit = await postJson(kycUrl, { action: 'submit' })
      expect(resubmit.status).toBe(400)
      expect(resubmit.body.message).toMatch(/retry it first/)
      expect((await postJson(kycUrl, { action: 'retry' })).body.kycStatus).toBe('retry_required')
      expect((await postJson(kycUrl, { action: 'approve' })).body).toMatchObject({
        kycStatus: 'approved',
        isCompliant: true,
      })
      expect(complianceEvents(apiKey).map((e) => e.kycStatus)).toEqual([
        'not_started',
        'initiated',
        'pending',
        'rejected',
        'retry_required',
        'pending',
        'approved',
      ])
      const again = await postJson(kycUrl, { action: 'approve' })
      expect(again.status).toBe(400)
      expect(again.body.message).toBe('KYC is already approved')
    })

    it('refuses KYC before the agreement is signed', async () => {
      const { kycUrl } = await createPayer(client(), newApiKey())
      const res = await postJson(kycUrl, { action: 'submit' })
      expect(res.status).toBe(400)
      expect(res.body.message).toMatch(/complete the agreement first/)
    })

    it('forces statuses through the control route, skipping intermediate states, with the same event', async () => {
      const apiKey = newApiKey()
      const { kycUrl } = await createPayer(client(), apiKey)
      await client().call('PATCH', '/v2/payer/john.doe%40example.com', {
        apiKey,
        body: { agreementCompleted: true },
      })
      await postJson(kycUrl, { action: 'submit' })
      const path = '/__sandbox/payers/john.doe%40example.com/compliance'
      const forced = await client().call('POST', path, { apiKey, body: { kycStatus: 'rejected' } })
      expect(forced.status).toBe(200)
      expect(forced.body).toMatchObject({
        kycStatus: 'rejected',
        agreementStatus: 'completed',
        isCompliant: false,
      })
      await advance(client(), apiKey, 60) // the review that was scheduled on submission was cancelled
      const read = await client().call('GET', '/v2/payer/john.doe%40example.com', { apiKey })
      expect(read.body.kycStatus).toBe('rejected')
      expect(complianceEvents(apiKey).at(-1)).toMatchObject({
        kycStatus: 'rejected',
        rawPayload: { trigger: 'forced' },
      })

      const fresh = newApiKey()
      await createPayer(client(), fresh)
      const both = await client().call('POST', path, {
        apiKey: fresh,
        body: { kycStatus: 'approved', agreementStatus: 'completed' },
      })
      expect(both.body).toMatchObject({
        kycStatus: 'approved',
        agreementStatus: 'completed',
        isCompliant: true,
      })
      expect(complianceEvents(fresh)).toHaveLength(2)
      expect(complianceEvents(fresh)[1]).toMatchObject({ kycStatus: 'approved', isCompliant: true })
    })

    it('refuses forced transitions that are empty, unknown or for an unknown payer', async () => {
      const apiKey = newApiKey()
      await createPayer(client(), apiKey)
      const path = '/__sandbox/payers/john.doe%40example.com/compliance'
      expect((await client().call('POST', path, { apiKey, body: {} })).status).toBe(400)
      const bad = await client().call('POST', path, { apiKey, body: { kycStatus: 'verified' } })
      expect(bad.status).toBe(400)
      expect(bad.body.errors[0].field).toBe('kycStatus')
      const unknown = await client().call('POST', '/__sandbox/payers/nobody/compliance', {
        apiKey,
        body: { kycStatus: 'approved' },
      })
      expect(unknown.status).toBe(404)
    })

    it('answers links the sandbox never issued with 404 (an HTML page, or JSON for actions)', async () => {
      const page = await fetch(`${client().baseUrl}/__sandbox/payer-pages/0123abcd/agreement`)
      expect(page.status).toBe(404)
      expect(page.headers.get('content-type')).toMatch(/^text\/html/)
      const action = await postJson(`${client().baseUrl}/__sandbox/payer-pages/0123abcd/kyc`, {
        action: 'approve',
      })
      expect(action.status).toBe(404)
      expect(action.body.message).toBe('This agreement or KYC link is not valid')
    })
  },
)
