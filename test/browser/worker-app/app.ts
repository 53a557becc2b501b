// A tiny browser app for test/browser/worker.test.ts: MSW's setupWorker with the sandbox's browser handlers,
// which forward the app's calls to a running sandbox server. Bundled by the test with esbuild.
import { setupWorker } from 'msw/browser'
import { createRemoteHandlers, remoteTenant } from '../../../src/msw-browser.ts'

declare global {
  interface Window {
    runApp(sandboxUrl: string, apiKey: string): Promise<Record<string, unknown>>
  }
}

window.runApp = async (sandboxUrl, apiKey) => {
  const tenant = remoteTenant(sandboxUrl, apiKey)
  const worker = setupWorker(
    ...createRemoteHandlers({
      sandboxUrl,
      baseUrl: 'https://api.request.network',
      headers: () => tenant.headers,
    }),
  )
  await worker.start({
    quiet: true,
    onUnhandledRequest: 'bypass',
    serviceWorker: { url: '/mockServiceWorker.js' },
  })
  // the app's own calls, to the real service's URL
  const api = 'https://api.request.network'
  const created = await fetch(`${api}/v2/request`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      amount: '7',
      invoiceCurrency: 'FAU-sepolia',
      paymentCurrency: 'FAU-sepolia',
      payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
    }),
  })
  const request = await created.json()
  const status = await (await fetch(`${api}/v2/request/${request.requestId}`)).json()
  const missing = await fetch(`${api}/v2/request/01${'0'.repeat(64)}`)
  // a scenario switched from the browser: the seeded payer cannot afford the seeded invoice
  const scenario = await tenant.use('insufficient-funds')
  const pay = await (
    await fetch(`${api}/v2/request/${scenario.ids.requestId}/pay?wallet=${scenario.ids.payer}`)
  ).json()
  worker.stop()
  return {
    createdStatus: created.status,
    request,
    status,
    missingStatus: missing.status,
    missingBody: await missing.json(),
    hasEnoughBalance: pay.metadata?.hasEnoughBalance,
  }
}
