// --max-webhooks holds for registrations sent at once: each waits for its URL's name to resolve (a shared listener
// checks where it points), and a count read before that wait let every one of them in (a key of --max-webhooks 3
// registered 6 to 20 of a burst of 20 on POST /v2/webhook, each a target of every event).
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server.ts'

let server: RunningServer
beforeAll(async () => {
  server = await startServer({
    chain: false,
    mcp: false,
    exposed: true,
    webhooks: {
      maxPerKey: 3,
      // a public address for every name, answered after a DNS server's delay
      resolve: async () => {
        await new Promise((resolve) => setTimeout(resolve, 20))
        return [{ address: '93.184.215.14', family: 4 }]
      },
    },
  })
}, 60_000)
afterAll(() => server?.close())

const register = (path: string, url: string) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': `race-${path}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url }),
  }).then(async (res) => ({ status: res.status, body: (await res.json()) as { message?: string } }))

it.each(['/v2/webhook', '/__sandbox/webhooks'])(
  '%s registers at most --max-webhooks at once',
  async (path) => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => register(path, `http://hooks-${i}.example.com/h`)),
    )
    expect(answers.filter((a) => a.status === 201)).toHaveLength(3)
    const refused = answers.filter((a) => a.status !== 201)
    expect(
      refused.every(
        (a) => a.status === 400 && /at most 3 webhooks \(--max-webhooks\)/.test(a.body.message ?? ''),
      ),
    ).toBe(true)
    const listed = await fetch(`${server.url}/v2/webhook`, { headers: { 'x-api-key': `race-${path}` } })
    expect(((await listed.json()) as unknown[]).length).toBe(3)
  },
)
