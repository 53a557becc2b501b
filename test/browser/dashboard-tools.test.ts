// The dashboard's buttons for the developer tools, in Debian's Chromium through playwright-core: a snapshot saved
// and restored from the Scenario page (the request made after it is gone again), and the receiver's answer of each
// webhook delivery attempt shown on the Webhooks page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server.ts'
import { launchChromium } from '../support/chromium.ts'
import { newApiKey } from '../support/clients.ts'
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts'

let sandbox: RunningServer
let browser: Awaited<ReturnType<typeof launchChromium>>
let receiver: WebhookReceiver

beforeAll(async () => {
  ;[sandbox, browser, receiver] = await Promise.all([
    startServer({ chain: false }),
    launchChromium(),
    startReceiver(),
  ])
}, 900_000)
afterAll(async () => {
  await browser?.close()
  await receiver?.close()
  await sandbox?.close()
})

async function api(key: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${sandbox.url}${path}`, {
    method,
    headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

const request = (key: string) =>
  api(key, 'POST', '/v2/request', {
    amount: '10',
    invoiceCurrency: 'FAU-sepolia',
    paymentCurrency: 'FAU-sepolia',
    payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
  })

describe('the dashboard tools in Chromium', () => {
  it('saves and restores a snapshot from the Scenario page, and shows the receiver answers', async () => {
    const key = newApiKey()
    const kept = (await request(key)).body.requestId as string
    const page = await browser.context.newPage()
    try {
      await page.goto(`${sandbox.url}/#scenario`)
      await page.getByLabel('API key').fill(key)
      await page.getByRole('button', { name: 'Open' }).click()
      await page.getByLabel('Snapshot name').fill('before-extra')
      await page.getByRole('button', { name: 'Save snapshot' }).click()
      await page.getByText('Snapshot before-extra saved').waitFor({ timeout: 20_000 })
      const extra = (await request(key)).body.requestId as string
      await page.getByRole('button', { name: 'Restore snapshot before-extra' }).click()
      await page.getByText('Snapshot before-extra restored').waitFor({ timeout: 20_000 })
      expect((await api(key, 'GET', `/v2/request/${extra}`)).status).toBe(404)
      expect((await api(key, 'GET', `/v2/request/${kept}`)).status).toBe(200)

      await api(key, 'POST', '/__sandbox/webhooks', { url: receiver.url })
      await api(key, 'POST', '/__sandbox/events', { type: 'payment.confirmed', payload: { requestId: kept } })
      await receiver.waitFor(1)
      await page.getByRole('link', { name: 'Webhooks' }).click()
      await page.locator('article.delivery').getByText('{"success":true}').waitFor({ timeout: 20_000 })

      await page.getByRole('link', { name: 'Scenario & clock' }).click()
      await page.getByRole('button', { name: 'Delete snapshot before-extra' }).click()
      await page.getByText('Snapshot before-extra deleted').waitFor({ timeout: 20_000 })
      expect((await api(key, 'GET', '/__sandbox/snapshots')).body).toEqual({ snapshots: [], damaged: [] })
    } finally {
      await page.close()
    }
  }, 120_000)
})
