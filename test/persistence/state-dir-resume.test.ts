// --state-dir, what was under way when the process stopped: an off-ramp walking its sub-statuses goes on at the
// times it had, a key's own conversion stack still quotes and detects at the key's rates, and a payment intent
// accepted but not settled is settled after the restart, without paying twice what the chains already hold.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Address, type Hex, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, describe, expect, it } from 'vitest'
import type { World } from '../../src/contract/world.ts'
import { intentState } from '../../src/resources/payment-intents/index.ts'
import { requestState } from '../../src/resources/requests/index.ts'
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox.ts'
import { execute, freshAddress, until } from '../support/chain.ts'
import { newApiKey } from '../support/clients.ts'
import { payerBody, usBankDetails } from '../support/compliance.ts'
import { type CrosschainAnswer, erc20PaymentLogs, signAnswer } from '../support/crosschain.ts'
import type { Loose } from '../support/loose.ts'
import { editState } from '../support/state-db.ts'

const dirs: string[] = []
let sandbox: Sandbox | null = null
afterAll(async () => {
  await sandbox?.close()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

function stateDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-resume-'))
  dirs.push(dir)
  return dir
}

async function start(options: SandboxOptions): Promise<Sandbox> {
  sandbox = await createSandbox({ log: () => {}, ...options })
  return sandbox
}

/** Stops the sandbox (a last save), as a restart would. */
async function stop(): Promise<void> {
  await sandbox?.close()
  sandbox = null
}

async function call(
  method: string,
  path: string,
  apiKey: string,
  body?: unknown,
  query: Record<string, string> = {},
) {
  const res = await sandbox!.dispatch({
    method,
    path,
    query,
    headers: { 'content-type': 'application/json', host: '127.0.0.1:8080', 'x-api-key': apiKey },
    rawBody: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, body: res.body as Loose }
}

describe('--state-dir resumes what was under way', () => {
  it('goes on with an off-ramp at the times its steps had; the steps due while stopped run at once, in order', async () => {
    const dir = stateDir()
    // a scenario whose off-ramp steps are 60 s apart, so that the restart itself never makes a step due
    const scenarios = join(dir, 'scenarios')
    mkdirSync(scenarios)
    writeFileSync(
      join(scenarios, 'slow-offramp.json'),
      JSON.stringify({
        name: 'slow-offramp',
        description: 'off-ramp steps a minute apart',
        rules: { offrampStepSeconds: 60 },
      }),
    )
    await start({ stateDir: dir, scenarioDirs: [scenarios] })
    const apiKey = newApiKey()
    expect((await call('PUT', '/__sandbox/scenario', apiKey, { scenario: 'slow-offramp' })).status).toBe(200)
    const { clientUserId } = payerBody()
    expect((await call('POST', '/v2/payer', apiKey, payerBody())).status).toBe(200)
    const payerPath = `/__sandbox/payers/${encodeURIComponent(clientUserId)}`
    await call('POST', `${payerPath}/compliance`, apiKey, {
      kycStatus: 'approved',
      agreementStatus: 'completed',
    })
    const detail = await call(
      'POST',
      `/v2/payer/${encodeURIComponent(clientUserId)}/payment-details`,
      apiKey,
      usBankDetails,
    )
    const paymentDetailsId = detail.body.payment_detail.id as string
    await call('POST', `${payerPath}/payment-details/${paymentDetailsId}`, apiKey, { status: 'approved' })
    const status = (requestId: string) => call('GET', `/v2/request/${requestId}`, apiKey)
    const payOfframp = async (account: number) => {
      const created = await call('POST', '/v2/request', apiKey, {
        amount: '50',
        invoiceCurrency: 'USDC-sepolia',
        paymentCurrency: 'USDC-sepolia',
        isCryptoToFiatAvailable: true,
      })
      const requestId = created.body.requestId as string
      const pay = await call('GET', `/v2/request/${requestId}/pay`, apiKey, undefined, {
        clientUserId,
        paymentDetailsId,
      })
      expect(pay.status).toBe(200)
      await execute(sandbox!, pay.body.transactions, account)
      await until(
        () => status(requestId),
        (r) => r.body.subStatus === 'initiated',
      )
      return requestId
    }
    // a: two steps taken (at 60 and 120 s); b: paid 130 s later, just initiated
    const a = await payOfframp(1)
    await call('POST', '/__sandbox/clock/advance', apiKey, { seconds: 130 })
    expect((await status(a)).body.subStatus).toBe('ongoing_checks')
    const b = await payOfframp(2)
    const startedB = (world: World) =>
      Date.parse(requestState(world).requests.get(b)!.offrampState!.startedAt!)
    const startB = startedB(sandbox!.shared.tenants.get(apiKey, 'slow-offramp'))
    await stop()
    // as if the sandbox had been down 125 s: a's sending_fiat (180 s) and fiat_sent (240 s), b's first two steps
    // (60 and 120 s after it started) fell due meanwhile; b's sending_fiat (180 s) did not
    editState(dir, (state) => {
      for (const world of state.worlds) if (world.tenant === apiKey) world.clockOffsetMs += 125_000
    })

    await start({ stateDir: dir, scenarioDirs: [scenarios] })
    const world = sandbox!.shared.tenants.get(apiKey, 'slow-offramp')
    await until(
      async () => [(await status(a)).body.subStatus, (await status(b)).body.subStatus],
      ([sa, sb]) => sa === 'fiat_sent' && sb === 'ongoing_checks',
    )
    expect((await status(a)).body).toMatchObject({ hasBeenPaid: true, status: 'paid' })
    const steps = (requestId: string) =>
      world.events
        .filter((e) => e.type === 'payment.processing' && e.payload.requestId === requestId)
        .map((e) => e.payload.subStatus)
    expect(steps(a)).toEqual(['sending_fiat', 'fiat_sent'])
    expect(steps(b)).toEqual(['pending_internal_assessment', 'ongoing_checks'])
    expect(
      world.events.filter((e) => e.type === 'payment.confirmed').map((e) => e.payload.requestId),
    ).toEqual([a])
    // b's remaining steps are where they were: 180 and 240 s after it started
    expect(
      world.clock
        .pending()
        .filter((p) => p.label.startsWith(`offramp ${b}`))
        .map((p) => [p.label, Date.parse(p.at) - startB]),
    ).toEqual([
      [`offramp ${b} sending_fiat`, 180_000],
      [`offramp ${b} fiat_sent`, 240_000],
    ])
    expect(startedB(world)).toBe(startB)
    await call('POST', '/__sandbox/clock/advance', apiKey, { seconds: 60 })
    expect((await status(b)).body.subStatus).toBe('sending_fiat')
    await call('POST', '/__sandbox/clock/advance', apiKey, { seconds: 60 })
    expect((await status(b)).body).toMatchObject({
      subStatus: 'fiat_sent',
      hasBeenPaid: true,
      status: 'paid',
    })
    await stop()
  })

  it("keeps a key's own conversion stack: a payment at its rate is detected, and quotes stay at its rate", async () => {
    const dir = stateDir()
    await start({ stateDir: dir })
    const apiKey = newApiKey()
    const set = await call('POST', '/__sandbox/rates', apiKey, {
      rates: [{ from: 'ETH-sepolia-sepolia', to: 'USD', rate: '3000' }],
    })
    expect(set.status).toBe(200)
    type Route = { from: string; to: string; proxy: string }
    const proxyOf = (rates: { routes: Route[] }) =>
      rates.routes.find((r) => r.from === 'USD' && r.to === 'ETH-sepolia-sepolia')!.proxy
    const ownProxy = proxyOf(set.body)
    expect(ownProxy).not.toBe(sandbox!.chain!.contracts.EthConversionProxy)
    const body = () => ({
      amount: '30',
      invoiceCurrency: 'USD',
      paymentCurrency: 'ETH-sepolia-sepolia',
      payee: freshAddress(),
    })
    const first = (await call('POST', '/v2/request', apiKey, body())).body
    // the transactions are built before the restart and sent after it
    const firstPay = (await call('GET', `/v2/request/${first.requestId}/pay`, apiKey)).body
    expect(firstPay.transactions[0].to).toBe(ownProxy)
    await stop()

    await start({ stateDir: dir })
    await execute(sandbox!, firstPay.transactions, 3)
    await until(
      () => call('GET', `/v2/request/${first.requestId}`, apiKey),
      (r) => r.body.hasBeenPaid,
    )
    expect(proxyOf((await call('GET', '/__sandbox/rates', apiKey)).body)).toBe(ownProxy)
    // a new quote after the restart is at the key's rate (30 USD at 3000 = 0.01 ETH, + 2 % max to spend)
    const secondBody = body()
    const second = (await call('POST', '/v2/request', apiKey, secondBody)).body
    const secondPay = (await call('GET', `/v2/request/${second.requestId}/pay`, apiKey)).body
    expect(secondPay.transactions[0].to).toBe(ownProxy)
    const near = (value: bigint, expected: bigint) =>
      expect(value - expected < 10n && expected - value < 10n).toBe(true)
    near(BigInt(secondPay.transactions[0].value.hex), (parseEther('0.01') * 102n) / 100n)
    await execute(sandbox!, secondPay.transactions, 3)
    near(await sandbox!.chain!.balanceOf('native', secondBody.payee), parseEther('0.01'))
    await until(
      () => call('GET', `/v2/request/${second.requestId}`, apiKey),
      (r) => r.body.hasBeenPaid,
    )
    await stop()
  })

  it('settles a payment intent accepted before the restart, and recognises one the chains already settled', async () => {
    const dir = stateDir()
    const options: SandboxOptions = { stateDir: dir, networks: ['base', 'arbitrum-one'] }
    await start(options)
    const base = () => sandbox!.chains.get('base')!
    const arbitrum = () => sandbox!.chains.get('arbitrum-one')!
    const apiKey = newApiKey()
    const payerAccount = privateKeyToAccount(arbitrum().accounts[1]!.privateKey)
    const usdcArbitrum = arbitrum().tokens['USDC-arbitrum-one']!
    const issue = async () => {
      const payee = freshAddress()
      const created = await call('POST', '/v2/request', apiKey, {
        amount: '25',
        invoiceCurrency: 'USDC-base',
        paymentCurrency: 'USDC-base',
        payee,
      })
      const pay = await call('GET', `/v2/request/${created.body.requestId}/pay`, apiKey, undefined, {
        wallet: payerAccount.address,
        chain: 'ARBITRUM',
        token: 'USDC',
      })
      expect(pay.status).toBe(200)
      const answer = pay.body as CrosschainAnswer
      return {
        payee,
        requestId: created.body.requestId as string,
        reference: created.body.paymentReference as Hex,
        answer,
        body: await signAnswer(payerAccount, answer),
      }
    }
    const intentOf = (id: string) => intentState(sandbox!.shared.tenants.get(apiKey)).paymentIntents.get(id)!
    const total = (id: string) => intentOf(id).permitted.reduce((sum, v) => sum + BigInt(v), 0n)
    const pending = await issue()
    const settled = await issue()
    const sent = await call(
      'POST',
      `/v2/request/payment-intents/${settled.answer.paymentIntentId}`,
      apiKey,
      settled.body,
    )
    expect(sent.status).toBeLessThan(300)
    await until(
      async () => intentOf(settled.answer.paymentIntentId).status,
      (s) => s === 'completed',
      { timeoutMs: 15_000 },
    )
    const settledTx = intentOf(settled.answer.paymentIntentId).destinationTxHash
    const pendingTotal = total(pending.answer.paymentIntentId)
    const payerBefore = await arbitrum().balanceOf(usdcArbitrum, payerAccount.address)
    await stop()
    // what a crash leaves: `pending` accepted (its send answered) before its settlement ran; `settled` paid on both
    // chains before the state recorded it
    editState(dir, (state) => {
      const world = state.worlds.find((w) => w.tenant === apiKey)!
      for (const intent of world.tables['payment-intents.paymentIntents'] ?? []) {
        if (intent.id === pending.answer.paymentIntentId)
          Object.assign(intent, {
            status: 'accepted',
            submittedAt: new Date().toISOString(),
            intentSignature: pending.body.signedPaymentIntent.signature,
            permitSignature: pending.body.signedApprovalPermit?.signature ?? null,
          })
        if (intent.id === settled.answer.paymentIntentId)
          Object.assign(intent, { status: 'accepted', sourceTxHash: null, destinationTxHash: null })
      }
    })

    await start(options)
    await until(
      async () => [pending, settled].map((r) => intentOf(r.answer.paymentIntentId).status),
      (s) => s.every((x) => x === 'completed'),
      { timeoutMs: 15_000 },
    )
    // the settled one: recognised by its transaction, nothing pulled or paid again
    expect(intentOf(settled.answer.paymentIntentId).destinationTxHash).toBe(settledTx)
    expect(await erc20PaymentLogs(base(), settled.reference)).toHaveLength(1)
    // the pending one: pulled once from the payer and paid to the payee with the request's reference
    expect(await arbitrum().balanceOf(usdcArbitrum, payerAccount.address)).toBe(payerBefore - pendingTotal)
    const [log] = await erc20PaymentLogs(base(), pending.reference)
    expect(log!.args).toMatchObject({
      to: pending.payee,
      amount: BigInt(intentOf(pending.answer.paymentIntentId).destinationAmount),
    })
    expect(await erc20PaymentLogs(base(), pending.reference)).toHaveLength(1)
    for (const r of [pending, settled])
      await until(
        () => call('GET', `/v2/request/${r.requestId}`, apiKey),
        (res) => res.body.hasBeenPaid,
      )
    expect(await base().balanceOf(base().tokens['USDC-base']!, pending.payee as Address)).toBe(
      BigInt(intentOf(pending.answer.paymentIntentId).destinationAmount),
    )
    await stop()
  })
})
