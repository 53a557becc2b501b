// request-sandbox trigger, run as a user runs it against a sandbox started with the command: each event happens
// for real (the request is paid on the chain, the payer's KYC is approved) and the command prints what it made.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, type CliSandbox, freshKey, runCli, startCliSandbox } from '../support/cli-sandbox.ts'

let sandbox: CliSandbox
beforeAll(async () => {
  sandbox = await startCliSandbox()
}, 90_000)
afterAll(() => sandbox?.stop())

const trigger = (key: string, ...args: string[]) =>
  runCli(['trigger', ...args, '--base', sandbox.url, '--key', key])

describe('request-sandbox trigger', () => {
  it('documents its flags and exit codes', async () => {
    const result = await runCli(['trigger', '--help'])
    expect(result.code).toBe(0)
    for (const flag of ['--list', '--override', '--request', '--payer', '--json', '--base', '--key'])
      expect(result.stdout).toContain(flag)
    expect(result.stdout).toMatch(/Exit codes: 0 .*1 .*2 /)
  })

  it('pays a new request on the chain for payment.confirmed, with overrides, and prints it', async () => {
    const key = freshKey('trigger')
    const result = await trigger(
      key,
      'payment.confirmed',
      '--override',
      'amount=42',
      '--override',
      'reference=INV-42',
      '--json',
    )
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const answer = JSON.parse(result.stdout)
    expect(answer.events.map((e: { type: string }) => e.type)).toContain('payment.confirmed')
    const { requestId, txHashes } = answer.objects
    const request = await api(sandbox.url, key, 'GET', `/v2/request/${requestId}`)
    expect(request.body).toMatchObject({ hasBeenPaid: true })
    const status = await api(sandbox.url, key, 'GET', `/v2/request/${requestId}`)
    expect(JSON.stringify(status.body)).toContain('INV-42')
    // the payment is a real transaction: its receipt is on the chain
    const receipt = await api(sandbox.url, key, 'POST', '/rpc', {
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_getTransactionReceipt',
      params: [txHashes.at(-1)],
    })
    expect(receipt.body.result.status).toBe('0x1')
    const payments = await api(sandbox.url, key, 'GET', `/v2/payments?requestId=${requestId}`)
    expect(JSON.stringify(payments.body)).toContain(txHashes.at(-1).slice(2, 20))
  }, 60_000)

  it('pays half of an existing request for payment.partial --request, and prints the event', async () => {
    const key = freshKey('trigger')
    const created = await api(sandbox.url, key, 'POST', '/v2/request', {
      amount: '100',
      invoiceCurrency: 'FAU-sepolia',
      paymentCurrency: 'FAU-sepolia',
      payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
    })
    expect(created.status).toBe(201)
    const result = await trigger(key, 'payment.partial', '--request', created.body.requestId)
    expect(result.code).toBe(0)
    expect(result.stdout).toContain(`event payment.partial ${created.body.requestId}`)
    const status = await api(sandbox.url, key, 'GET', `/v2/request/${created.body.requestId}`)
    expect(status.body).toMatchObject({ status: 'partially_paid', hasBeenPaid: false })
    expect(status.body.payments).toHaveLength(1)
    expect(status.body.payments[0].amount).toBe('50')
  }, 60_000)

  it('approves a new payer for compliance.updated and runs the off-ramp for payment.processing', async () => {
    const key = freshKey('trigger')
    const kyc = await trigger(key, 'compliance.updated', '--json')
    expect(kyc.code).toBe(0)
    const { clientUserId } = JSON.parse(kyc.stdout).objects
    const payer = await api(sandbox.url, key, 'GET', `/v2/payer/${encodeURIComponent(clientUserId)}`)
    expect(payer.body).toMatchObject({
      kycStatus: 'approved',
      agreementStatus: 'completed',
      isCompliant: true,
    })

    const offramp = await trigger(key, 'payment.processing', '--json')
    expect(offramp.code).toBe(0)
    const steps = JSON.parse(offramp.stdout)
      .events.filter((e: { type: string }) => e.type === 'payment.processing')
      .map((e: { payload: { subStatus: string } }) => e.payload.subStatus)
    expect(steps).toEqual([
      'initiated',
      'pending_internal_assessment',
      'ongoing_checks',
      'sending_fiat',
      'fiat_sent',
    ])
  }, 60_000)

  it('fails a recurring payout for payment.failed and creates a child for request.recurring', async () => {
    const key = freshKey('trigger')
    const failed = await trigger(key, 'payment.failed', '--json')
    expect(failed.code).toBe(0)
    const { payoutId } = JSON.parse(failed.stdout).objects
    const payout = await api(sandbox.url, key, 'GET', `/v2/payouts/recurring/${payoutId}`)
    expect(JSON.stringify(payout.body)).toContain('paused')
    const recurring = await trigger(key, 'request.recurring')
    expect(recurring.code).toBe(0)
    expect(recurring.stdout).toMatch(/event request\.recurring 01[0-9a-f]{64}/)
  }, 60_000)

  it('pays a secure payment link as its page does, and rejects a wallet a link does not allow', async () => {
    const key = freshKey('trigger')
    const paid = await trigger(key, 'payment.confirmed.checkout', '--json')
    expect(paid.code, paid.stderr).toBe(0)
    const answer = JSON.parse(paid.stdout)
    expect(answer.events.map((e: { type: string }) => e.type)).toEqual(
      expect.arrayContaining([
        'secure_payment.user_event',
        'payment.confirmed',
        'payment.confirmed.checkout',
      ]),
    )
    const request = await api(sandbox.url, key, 'GET', `/v2/request/${answer.objects.requestIds[0]}`)
    expect(request.body).toMatchObject({ hasBeenPaid: true })
    const rejected = await trigger(key, 'secure_payment.access_rejected', '--json')
    expect(rejected.code).toBe(0)
    const { rejectedWallet } = JSON.parse(rejected.stdout).objects
    const events = await api(sandbox.url, key, 'GET', '/__sandbox/events?type=secure_payment.access_rejected')
    expect(events.body.events[0].payload.attemptedPayerWalletAddress).toBe(rejectedWallet.toLowerCase())
  }, 60_000)

  // the list is the same for everyone and in no world, so it needs no key (as `stripe trigger --help` needs none)
  it('lists its events without a key, in aligned columns; GET /__sandbox/triggers is public', async () => {
    const list = await runCli(['trigger', '--list', '--base', sandbox.url], { SANDBOX_API_KEY: '' })
    expect(list.stderr).toBe('')
    expect(list.code).toBe(0)
    const lines = list.stdout.trimEnd().split('\n')
    expect(lines.length).toBeGreaterThan(10)
    expect(lines.map((line) => line.split(' ')[0])).toContain('secure_payment.access_rejected')
    // every description starts in the same column, past the longest event name
    const columns = new Set(lines.map((line) => /^\S+\s+/.exec(line)![0].length))
    expect(columns.size).toBe(1)
    const response = await fetch(`${sandbox.url}/__sandbox/triggers`)
    expect(response.status).toBe(200)
    const body = (await response.json()) as { triggers: { event: string }[] }
    expect(body.triggers.map((t) => t.event)).toEqual(lines.map((line) => line.split(' ')[0]))
  })

  it('lists its events, and refuses an unknown event, a bad override and a missing key', async () => {
    const key = freshKey('trigger')
    const list = await trigger(key, '--list')
    expect(list.code).toBe(0)
    for (const event of [
      'payment.confirmed',
      'payment.partial',
      'payment.processing',
      'payment.failed',
      'compliance.updated',
      'payment_detail.updated',
      'request.recurring',
      'payout.recurring',
      'payment.confirmed.checkout',
      'secure_payment.user_event',
      'secure_payment.access_rejected',
    ])
      expect(list.stdout).toContain(event)
    const unknown = await trigger(key, 'payment.nope')
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain('Unknown event payment.nope')
    const bad = await trigger(key, 'payment.confirmed', '--override', 'amount=-3')
    expect(bad.code).toBe(1)
    expect(bad.stderr).toContain('400')
    // an override path reaching Object.prototype is refused: it would change every object of the server
    const proto = await api(sandbox.url, key, 'POST', '/__sandbox/trigger', {
      event: 'payment.confirmed',
      overrides: { '__proto__.polluted': 'yes' },
    })
    expect(proto.status).toBe(400)
    expect(JSON.stringify(proto.body)).toContain('__proto__')
    const after = await api(sandbox.url, freshKey('trigger'), 'POST', '/__sandbox/trigger', {
      event: 'payment.confirmed',
    })
    expect(after.status, JSON.stringify(after.body)).toBe(201)
    const noKey = await runCli(['trigger', 'payment.confirmed', '--base', sandbox.url], {
      SANDBOX_API_KEY: '',
    })
    expect(noKey.code).toBe(2)
    expect(noKey.stderr).toContain('--key')
  }, 60_000)
})
