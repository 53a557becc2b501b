// The dashboard's Orchestrator section in Chromium: with an orc_… key, the client IDs it linked (with the
// platform's label), its fee configs and a preview of each branding row themed with its colours and logo.
// Screenshot in test-output/orchestrator-branding/ (gitignored).
import { randomBytes } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server.ts'
import { launchChromium } from '../support/chromium.ts'
import { newApiKey } from '../support/clients.ts'
import type { Loose } from '../support/loose.ts'

const shots = new URL('../../test-output/orchestrator-branding/', import.meta.url).pathname
let sandbox: RunningServer
let browser: Awaited<ReturnType<typeof launchChromium>>

beforeAll(async () => {
  mkdirSync(shots, { recursive: true })
  ;[sandbox, browser] = await Promise.all([startServer({ chain: false }), launchChromium()])
}, 900_000)
afterAll(async () => {
  await browser?.close()
  await sandbox?.close()
})

async function call(headers: Record<string, string>, method: string, path: string, body?: unknown) {
  const res = await fetch(`${sandbox.url}${path}`, {
    method,
    headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  })
  return { status: res.status, body: (await res.json()) as Loose }
}

it("shows an orchestrator's linked client IDs, fee configs and branding previews", async () => {
  const key = `orc_dash_${randomBytes(6).toString('hex')}`
  const orc = { 'x-orchestrator-key': key }
  const owner = newApiKey()
  const created = await call({ 'x-api-key': owner }, 'POST', '/v2/client-ids', {
    label: 'Acme checkout',
    allowedDomains: ['https://acme.example.com'],
  })
  const clientId = created.body.clientId as string
  // linked with its owner's consent (the owner's API key beside the orchestrator key)
  expect(
    (await call({ ...orc, 'x-api-key': owner }, 'POST', '/v2/orchestrators/client-ids', { clientId })).status,
  ).toBe(201)
  await call(orc, 'POST', '/v2/orchestrators/fee-configs', {
    bps: 250,
    usdCap: '10',
    feeBearer: 'payer',
    flow: 'incoming',
    evmRecipientAddress: '0x742d35CC6634c0532925a3B844BC9e7595f8fA40',
  })
  await call(orc, 'POST', '/v2/orchestrators/branding', {
    pageBackgroundColor: '#1e1b4b',
    cardBackgroundColor: '#fdf4ff',
    primaryActionColor: '#c026d3',
    logoPath: '/branding/sandbox/logo.png',
    termsPath: '/branding/sandbox/terms.html',
  })
  await call(orc, 'POST', '/v2/orchestrators/branding', { clientId, primaryActionColor: '#0369a1' })

  const page = await browser.context.newPage()
  await page.setViewportSize({ width: 1280, height: 900 })
  await page.goto(`${sandbox.url}/#orchestrator`)
  await page.getByLabel('API key').fill(key)
  await page.getByLabel('API key').press('Enter')
  await page.getByTestId('linked-client-id').waitFor()
  expect(await page.getByTestId('linked-client-id').allTextContents()).toEqual([clientId])
  expect(await page.getByText('Acme checkout').count()).toBe(1)
  expect(await page.getByTestId('fee-rate').allTextContents()).toEqual(['2.5%'])
  const previews = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.brand-preview')].map((figure) => ({
      who: figure.dataset.branding,
      page: getComputedStyle(figure).backgroundColor,
      action: getComputedStyle(figure.querySelector('.brand-preview-button')!).backgroundColor,
      logo: figure.querySelector('img')?.getAttribute('src') ?? null,
    })),
  )
  expect(previews).toEqual([
    {
      who: 'orchestrator',
      page: 'rgb(30, 27, 75)',
      action: 'rgb(192, 38, 211)',
      logo: './branding/sandbox/logo.png',
    },
    // the client row replaces the orchestrator's: page defaults elsewhere, no logo
    { who: clientId, page: 'rgb(243, 244, 246)', action: 'rgb(3, 105, 161)', logo: null },
  ])
  await page.waitForFunction(() => {
    const img = document.querySelector<HTMLImageElement>('.brand-preview img')
    return img?.complete && img.naturalWidth > 0
  })
  await page.screenshot({ path: `${shots}7-dashboard-orchestrator.png`, fullPage: true })
  await page.close()
})
