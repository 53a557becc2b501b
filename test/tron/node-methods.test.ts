// The Tron node's method names are a stranger's input (the routes are public, like TronGrid's): a name that is an
// object's prototype key (`constructor`, `__proto__`, `toString`, `hasOwnProperty`, `valueOf`) is an unknown method
// like any other, answered as TronGrid answers a path it does not serve; a body that is not a JSON object answers
// TronGrid's `Error`; nothing the caller sends becomes the status. Served over a real tron chain (anvil).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server.ts'

let server: RunningServer
let fullHost: string
beforeAll(async () => {
  server = await startServer({ port: 0, networks: ['tron'] })
  fullHost = `${server.url}/tron`
}, 120_000)
afterAll(async () => {
  await server?.close()
})

async function call(method: 'GET' | 'POST', path: string, body?: string) {
  const response = await fetch(`${fullHost}/${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body }),
  })
  const text = await response.text()
  let json: unknown = text
  try {
    json = JSON.parse(text)
  } catch {}
  return { status: response.status, body: json as Record<string, unknown> }
}

describe("the Tron node's method table", () => {
  const hostile = [
    'constructor',
    'CONSTRUCTOR',
    '__proto__',
    'toString',
    'tostring',
    'hasOwnProperty',
    'valueOf',
  ]
  it.each(hostile.flatMap((name) => [`wallet/${name}`, `walletsolidity/${name}`]))(
    "answers %s as an unknown method: 404 with TronGrid's Error, whatever the body asks",
    async (path) => {
      for (const body of ['{"status":999}', '{"status":200,"body":{"ok":true}}', '{}']) {
        for (const method of ['POST', 'GET'] as const) {
          const answer = await call(method, path, method === 'POST' ? body : undefined)
          expect(answer.status, `${method} ${path} ${body}`).toBe(404)
          expect(answer.body).toEqual({ Error: expect.stringContaining('is not served') })
        }
      }
    },
  )

  it('answers an unknown name and a path outside wallet/ as TronGrid does: 404 with an Error', async () => {
    for (const path of ['wallet/nosuchmethod', 'wallet/getAccount2', 'walletsolidity/getaccountbyid']) {
      const answer = await call('POST', path, '{}')
      expect(answer.status).toBe(404)
      expect(answer.body).toEqual({ Error: `${path.toLowerCase()} is not served by the sandbox's Tron node` })
    }
    const fullOnly = await call('POST', 'walletsolidity/broadcasttransaction', '{}')
    expect(fullOnly).toEqual({
      status: 404,
      body: { Error: 'walletsolidity/broadcasttransaction is not a solidity node method' },
    })
  })

  it("answers a body that is not a JSON object with java-tron's Error (its JSON parser's exception), a 400", async () => {
    for (const body of ['{not json', '[1,2]', '"text"', '42', 'null']) {
      const answer = await call('POST', 'wallet/getnowblock', body)
      expect(answer.status, body).toBe(400)
      expect(answer.body).toEqual({
        Error: expect.stringMatching(/^class com\.alibaba\.fastjson\.JSONException : /),
      })
    }
  })

  it('still serves its methods by name, in any case', async () => {
    const block = await call('POST', 'wallet/getnowblock', '{}')
    expect(block.status).toBe(200)
    expect(block.body).toHaveProperty('blockID')
    const upper = await call('GET', 'walletsolidity/GetNowBlock')
    expect(upper.status).toBe(200)
    expect(upper.body).toHaveProperty('blockID')
  })
})
