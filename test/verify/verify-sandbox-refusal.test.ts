// verify in client-ID mode makes a client ID on the sandbox first: a sandbox URL that answers something other than
// the API's JSON (a proxy's error page) is refused with what it answered, not a JSON parser's error.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { verify } from '../../src/verify/index.ts'

let gateway: Server
let url: string
beforeAll(async () => {
  gateway = createServer((_request, response) => {
    response.writeHead(502, { 'content-type': 'text/html' })
    response.end('<html><body>Bad Gateway</body></html>')
  })
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise((resolve) => gateway?.close(resolve))
})

it("names the sandbox's answer when it refuses a client ID with a page that is not JSON", async () => {
  const run = verify([
    '--against',
    url,
    '--client-id',
    'client_1',
    '--origin',
    'https://shop.test',
    '--sandbox',
    url,
  ])
  await expect(run).rejects.toThrow(/refused a client ID for https:\/\/shop\.test: 502 <html>/)
})
