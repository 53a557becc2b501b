// A server with claimable sandboxes and a state dir, killed (SIGKILL) while it deletes an expired claim's state:
// three keys (a claim that expires, a claim that lives on, the operator's key) each get a webhook, a scenario choice,
// a request and a snapshot; the wall clock moves past the first claim's expiry and its next call expires it; the
// process kills itself `turns` event-loop turns after that call reached the server (0: in the same turn, right after
// the expiry's synchronous work). argv: the state dir, turns, and the checkout whose server runs (default this one).
// Prints {"doomed","live","clock"} as one JSON line before the expiring call. Used by
// test/claimable/claim-wipe-kill.test.ts.
import { openState } from './state-db.ts'

const dir = process.argv[2]!
const turns = Number(process.argv[3] ?? 0)
const checkout = new URL(`${process.argv[4] ?? new URL('../..', import.meta.url).pathname}/`, 'file:///')
const { startServer } = (await import(
  new URL('src/server.ts', checkout).href
)) as typeof import('../../src/server.ts')

const DAY = 86_400_000
let clock = Date.parse('2026-12-06T12:00:00Z')
const server = await startServer({
  port: 0,
  chain: false,
  apiKeys: ['sk_operator'],
  stateDir: dir,
  claimable: { now: () => clock },
})
const call = async (method: string, path: string, key?: string, body?: unknown) => {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      ...(key ? { 'x-api-key': key } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const json = (await response.json()) as Record<string, unknown>
  return { status: response.status, json }
}
const claim = async () => (await call('POST', '/__sandbox/sandboxes')).json.key as string

const doomed = await claim()
clock += 6 * DAY
const live = await claim()
for (const key of [doomed, live, 'sk_operator']) {
  const answers = [
    await call('POST', '/__sandbox/webhooks', key, { url: 'https://example.com/hook' }),
    await call('PUT', '/__sandbox/scenario', key, { scenario: 'kyc-approved' }),
    await call('POST', '/v2/request', key, {
      amount: '10',
      invoiceCurrency: 'USD',
      paymentCurrency: 'FAU-sepolia',
      payee: '0x1111111111111111111111111111111111111111',
    }),
    await call('POST', '/__sandbox/snapshots', key, { name: 'before' }),
  ]
  for (const answer of answers)
    if (answer.status >= 300) throw new Error(`setup failed: ${answer.status} ${JSON.stringify(answer.json)}`)
}
// the journal is appended every 200 ms: each key's is on disk before the kill (not a fixed wait, which a loaded
// machine outruns)
const journaled = () => {
  const db = openState(dir)
  try {
    const n = db.prepare('SELECT count(DISTINCT tenant) AS n FROM journal WHERE tenant IN (?, ?, ?)')
    return (n.get(doomed, live, 'sk_operator') as { n: number }).n === 3
  } finally {
    db.close()
  }
}
for (const deadline = Date.now() + 10_000; !journaled(); ) {
  if (Date.now() > deadline) throw new Error("the keys' journals did not reach state.db within 10 s")
  await new Promise((resolve) => setTimeout(resolve, 50))
}
clock += 2 * DAY
process.stdout.write(`${JSON.stringify({ doomed, live, clock })}\n`)

const kill = () => process.kill(process.pid, 'SIGKILL')
// heard after the server's own listener, in the same turn: the expiry and its synchronous deletes are done
server.server.on('request', (req) => {
  if (req.headers['x-api-key'] !== doomed) return
  let left = turns
  const next = () => (left-- <= 0 ? kill() : setImmediate(next))
  next()
})
await call('GET', '/__sandbox/clock', doomed)
// not killed yet (more turns than the call took): the kill comes as the turns run out
await new Promise((resolve) => setTimeout(resolve, 10_000))
process.stdout.write('not killed\n')
