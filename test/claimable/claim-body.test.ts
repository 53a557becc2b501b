// POST /__sandbox/sandboxes takes no body: none, an empty one or `{}` make a sandbox; a body that is not JSON, JSON
// that is not an object, or an object with fields answers 400 in the API's error shape naming what is wrong, a body
// past the API's bound 413, and none of them counts against the address's claims.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server.ts'

let server: RunningServer
beforeAll(async () => {
  server = await startServer({
    port: 0,
    chain: false,
    apiKeys: ['sk_operator'],
    claimable: { perAddressPerHour: 3 },
  })
}, 60_000)
afterAll(async () => {
  await server?.close()
})

const post = async (body: string | undefined, type = 'application/json') => {
  const response = await fetch(`${server.url}/__sandbox/sandboxes`, {
    method: 'POST',
    headers: body === undefined ? {} : { 'content-type': type },
    ...(body === undefined ? {} : { body }),
    signal: AbortSignal.timeout(10_000),
  })
  const text = await response.text()
  let json: unknown = text
  try {
    json = JSON.parse(text)
  } catch {}
  // biome-ignore lint/suspicious/noExplicitAny: an answer as the tests read it
  return { status: response.status, body: json as any }
}

describe('POST /__sandbox/sandboxes and its body', () => {
  it('answers a malformed body 400 naming what is wrong, and counts none of them', async () => {
    const cases: [string, string, RegExp][] = [
      ['not json', 'text/plain', /takes no body .*: this one is not JSON/],
      ['{"ttl":', 'application/json', /this one is not JSON/],
      ['[1, 2]', 'application/json', /this one is an array/],
      ['"sandbox"', 'application/json', /this one is a string/],
      ['42', 'application/json', /this one is a number/],
      ['null', 'application/json', /this one is null/],
      ['{"ttl": 30, "name": "mine"}', 'application/json', /unknown fields "ttl", "name"/],
      ['ttl=30', 'application/x-www-form-urlencoded', /this one is not JSON/],
    ]
    for (const [body, type, message] of cases) {
      const answer = await post(body, type)
      expect(answer.status, body).toBe(400)
      expect(answer.body, body).toMatchObject({ statusCode: 400, error: 'Bad Request' })
      expect(answer.body.message, body).toMatch(message)
    }
    const huge = await post(`{"pad":"${'x'.repeat(1_100_000)}"}`)
    expect(huge.status).toBe(413)
    expect(huge.body).toMatchObject({ statusCode: 413, error: 'Payload Too Large' })
    // none of them took one of the address's 3 claims an hour: no body, an empty one and {} each make one
    for (const body of [undefined, '', '  {} ']) {
      const created = await post(body)
      expect(created.status, String(body)).toBe(201)
      expect(created.body.key).toMatch(/^sk_sandbox_/)
    }
    expect((await post(undefined)).status).toBe(429)
  })
})
