// The browser harness in a real browser: a page using MSW's setupWorker and `request-sandbox/msw/browser`
// (bundled with esbuild) answers its calls to https://api.request.network from a running sandbox server, across
// origins (CORS), with per-key scenarios switched from the page.
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { requestState } from '../../src/resources/requests/index.ts'
import { type RunningServer, startServer } from '../../src/server.ts'
import { launchChromium } from '../support/chromium.ts'

let sandbox: RunningServer
let browser: Awaited<ReturnType<typeof launchChromium>>
let site: Server
let siteUrl = ''

beforeAll(async () => {
  const [started, launched, bundle] = await Promise.all([
    startServer(),
    launchChromium(),
    build({
      entryPoints: [new URL('./worker-app/app.ts', import.meta.url).pathname],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
    }),
  ])
  sandbox = started
  browser = launched
  const files: Record<string, [string, string]> = {
    '/': ['text/html', '<!doctype html><title>app</title><script type="module" src="/app.js"></script>'],
    '/app.js': ['text/javascript', bundle.outputFiles[0]!.text],
    '/mockServiceWorker.js': [
      'text/javascript',
      readFileSync(new URL('../../node_modules/msw/lib/mockServiceWorker.js', import.meta.url), 'utf8'),
    ],
  }
  site = createServer((req, res) => {
    const file = files[req.url ?? '/']
    if (!file) return void res.writeHead(404).end()
    res.writeHead(200, { 'content-type': file[0] })
    res.end(file[1])
  })
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`
}, 900_000)

afterAll(async () => {
  await browser?.close()
  await new Promise((resolve) => (site ? site.close(resolve) : resolve(undefined)))
  await sandbox?.close()
})

describe('setupWorker in Chromium against a running sandbox', () => {
  it("answers the app's calls to the real API URL, errors and scenarios included", async () => {
    const page = await browser.context.newPage()
    await page.goto(siteUrl)
    await page.waitForFunction(() => typeof window.runApp === 'function')
    const apiKey = `browser-${Date.now()}`
    const result = await page.evaluate(([url, key]) => window.runApp(url!, key!), [sandbox.url, apiKey])
    expect(result.createdStatus).toBe(201)
    const request = result.request as { requestId: string; paymentReference: string }
    expect(request.requestId).toMatch(/^01[0-9a-f]{64}$/)
    expect(result.status).toMatchObject({ requestId: request.requestId, hasBeenPaid: false })
    expect(result.missingStatus).toBe(404)
    expect(result.missingBody).toEqual({ statusCode: 404, message: 'Request not found', error: 'Not Found' })
    expect(result.hasEnoughBalance).toBe(false)
    // the calls landed in the key's own world on the server
    const world = sandbox.sandbox.shared.tenants.peek(apiKey)
    expect(world && requestState(world).requests.get(request.requestId)).toBeDefined()
    await page.close()
  })
})
