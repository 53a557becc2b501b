// Webhook chaos and redelivery as a user drives them: `request-sandbox webhooks chaos|deliveries|redeliver` and
// the x-sandbox-webhook-chaos header against a sandbox started with the command, checked at a real receiver.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, type CliSandbox, freshKey, runCli, startCliSandbox } from '../support/cli-sandbox.ts'
import { waitFor } from '../support/wait.ts'
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts'

let sandbox: CliSandbox
let receiver: WebhookReceiver
beforeAll(async () => {
  sandbox = await startCliSandbox(['--no-chain'])
  receiver = await startReceiver()
}, 90_000)
afterAll(async () => {
  await receiver?.close()
  await sandbox?.stop()
})

/** A fresh key whose webhook is the receiver, at its own path (the receiver's list is filtered by it). */
async function keyWithHook() {
  const key = freshKey('chaos')
  const url = `${receiver.url}/${key}`
  const hook = await api(sandbox.url, key, 'POST', '/v2/webhook', { url })
  expect(hook.status).toBe(201)
  receiver.secret = hook.body.secret
  const got = () => receiver.received.filter((r) => r.path.endsWith(`/${key}`))
  return { key, got }
}
const cli = (key: string, ...args: string[]) =>
  runCli(['webhooks', ...args, '--base', sandbox.url, '--key', key])
const emit = (
  key: string,
  type: string,
  payload: Record<string, unknown>,
  headers: Record<string, string> = {},
) =>
  fetch(`${sandbox.url}/__sandbox/events`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ type, payload }),
  })
const until = <T>(check: () => T | undefined, what: string) =>
  waitFor(check, { timeoutMs: 10_000, intervalMs: 20, what })
const deliveries = async (key: string) =>
  (await api(sandbox.url, key, 'GET', '/__sandbox/webhooks/deliveries')).body

describe('request-sandbox webhooks', () => {
  it('documents its commands, flags and exit codes, and refuses a bad rule with 2', async () => {
    const help = await runCli(['webhooks', '--help'])
    expect(help.code).toBe(0)
    for (const word of [
      'chaos',
      'deliveries',
      'redeliver',
      '--rule',
      '--clear',
      '--json',
      'x-sandbox-webhook-chaos',
    ])
      expect(help.stdout).toContain(word)
    expect(help.stdout).toMatch(/Exit codes/)
    const bad = await cli('k', 'chaos', '--rule', 'payment.confirmed=explode')
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--rule')
    // a misspelt event type is refused, not kept as a rule that never matches
    const typo = await api(sandbox.url, freshKey('chaos-typo'), 'PUT', '/__sandbox/webhooks/chaos', {
      rules: [{ events: ['payment.confirmd'], action: 'drop' }],
    })
    expect(typo.status).toBe(400)
    expect(JSON.stringify(typo.body)).toContain('payment.confirmed')
  })

  it('duplicates the chosen events only, and shows and clears the rules', async () => {
    const { key, got } = await keyWithHook()
    const set = await cli(key, 'chaos', '--rule', 'payment.confirmed=duplicate')
    expect(set).toMatchObject({ code: 0, stdout: 'payment.confirmed=duplicate\n' })
    expect((await cli(key, 'chaos')).stdout).toBe('payment.confirmed=duplicate\n')
    await emit(key, 'payment.confirmed', { requestId: 'r1' })
    await emit(key, 'compliance.updated', { clientUserId: 'c1' })
    await until(() => (got().length >= 3 ? true : undefined), 'three deliveries')
    const confirmed = got().filter((r) => r.body.event === 'payment.confirmed')
    expect(confirmed).toHaveLength(2)
    expect(confirmed[0]!.headers['x-request-network-delivery']).toBe(
      confirmed[1]!.headers['x-request-network-delivery'],
    )
    expect(confirmed.every((r) => r.signatureValid)).toBe(true)
    expect(got().filter((r) => r.body.event === 'compliance.updated')).toHaveLength(1)
    expect((await cli(key, 'chaos', '--clear')).stdout).toBe('no chaos rules\n')
  })

  it('drops a delivery, which redeliver then sends; deliveries show the receiver answers', async () => {
    const { key, got } = await keyWithHook()
    await cli(key, 'chaos', '--rule', '*=drop')
    await emit(key, 'payment.partial', { requestId: 'r2' })
    const [dropped] = await until(async () => {
      const list = await deliveries(key)
      return list.length ? list : undefined
    }, 'the dropped delivery')
    expect(dropped).toMatchObject({ state: 'failed', chaos: 'drop' })
    expect(dropped.attempts[0].error).toContain('dropped')
    expect(got()).toHaveLength(0)
    const again = await cli(key, 'redeliver', dropped.id)
    expect(again.code).toBe(0)
    expect(again.stdout).toContain(`redelivering ${dropped.id}`)
    await until(() => (got().length === 1 ? true : undefined), 'the redelivery')
    expect(got()[0]!.headers['x-request-network-delivery']).toBe(dropped.id)
    await until(
      async () => ((await deliveries(key))[0].state === 'delivered' ? true : undefined),
      'delivered',
    )
    const shown = await cli(key, 'deliveries')
    expect(shown.stdout).toContain(
      `${dropped.id} payment.partial -> ${receiver.url}/${key} delivered (chaos: drop)`,
    )
    expect(shown.stdout).toContain('200')
    expect(shown.stdout).toContain('{\\"success\\":true}')
    const json = JSON.parse((await cli(key, 'deliveries', '--json')).stdout)
    expect(json[0].attempts.at(-1).response).toMatchObject({
      body: '{"success":true}',
      headers: { 'content-type': 'application/json' },
    })
    const unknown = await cli(key, 'redeliver', 'nope')
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain('404')
  })

  it('fails the first attempt without sending it, then retries for real', async () => {
    const { key, got } = await keyWithHook()
    await cli(key, 'chaos', '--rule', 'payment.confirmed=fail:503')
    await emit(key, 'payment.confirmed', { requestId: 'r3' })
    await until(() => (got().length === 1 ? true : undefined), 'the retry')
    expect(got()[0]!.headers['x-request-network-retry-count']).toBe('1')
    const [record] = await until(async () => {
      const list = await deliveries(key)
      return list[0]?.state === 'delivered' ? list : undefined
    }, 'delivered')
    expect(record.attempts.map((a: { status: number }) => a.status)).toEqual([503, 200])
  })

  it('reorders: a held delivery reaches the receiver after the next one', async () => {
    const { key, got } = await keyWithHook()
    await cli(key, 'chaos', '--rule', 'payment.confirmed=reorder:5000')
    await emit(key, 'payment.confirmed', { requestId: 'first' })
    await emit(key, 'compliance.updated', { clientUserId: 'second' })
    await until(() => (got().length === 2 ? true : undefined), 'both deliveries')
    expect(got().map((r) => r.body.event)).toEqual(['compliance.updated', 'payment.confirmed'])
  })

  it('applies x-sandbox-webhook-chaos to the events of one call only, and refuses a bad value with 400', async () => {
    const { key, got } = await keyWithHook()
    const started = Date.now()
    const delayed = await emit(
      key,
      'payment.confirmed',
      { requestId: 'late' },
      { 'x-sandbox-webhook-chaos': 'delay:700' },
    )
    expect(delayed.status).toBe(201)
    await emit(key, 'payment.partial', { requestId: 'on-time' })
    await until(() => (got().length === 2 ? true : undefined), 'both deliveries')
    expect(got().map((r) => r.body.requestId)).toEqual(['on-time', 'late'])
    expect(Date.now() - started).toBeGreaterThanOrEqual(700)
    const bad = await emit(key, 'payment.confirmed', {}, { 'x-sandbox-webhook-chaos': 'explode' })
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as { message: string }).message).toContain(
      'duplicate, drop, delay, reorder, fail',
    )
  })
})
