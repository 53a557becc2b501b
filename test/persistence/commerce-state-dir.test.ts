// --state-dir keeps commerce payments: after a restart the payment, its recorded transitions and the hold on the
// (restored) chain come back; the escrow watcher reads the chain from block 0 again without recording or announcing
// a step twice, and the payment goes on (the rest is captured).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { createSandbox, type Sandbox } from '../../src/sandbox.ts'
import { execute } from '../support/chain.ts'
import { newApiKey } from '../support/clients.ts'
import { dispatchAs } from '../support/dispatch.ts'

const dir = mkdtempSync(join(tmpdir(), 'sandbox-commerce-'))
let sandbox: Sandbox | null = null
afterAll(async () => {
  await sandbox?.close()
  rmSync(dir, { recursive: true, force: true })
})

const call = dispatchAs(() => sandbox!)

const commerceEvents = (apiKey: string) =>
  sandbox!.shared.tenants
    .get(apiKey)
    .events.filter((e) => e.type.startsWith('commerce_payment.'))
    .map((e) => e.type)

it('keeps a commerce payment and its steps across a restart, and goes on with it', async () => {
  sandbox = await createSandbox({ log: () => {}, stateDir: dir })
  const apiKey = newApiKey()
  const chain = sandbox.chain!
  const created = await call('POST', '/v2/commerce-payments/authorize/calldata', apiKey, {
    amount: '6',
    paymentCurrency: 'FAU-sepolia',
    payer: chain.accounts[1]!.address,
    payee: chain.accounts[2]!.address,
  })
  expect(created.status).toBe(200)
  const { requestId } = created.body
  await execute(sandbox, created.body.transactions, 1)
  expect(
    (await call('POST', `/v2/commerce-payments/${requestId}/capture`, apiKey, { amount: '2' })).status,
  ).toBe(200)
  expect(commerceEvents(apiKey)).toEqual(['commerce_payment.authorized', 'commerce_payment.captured'])
  await sandbox.close()

  sandbox = await createSandbox({ log: () => {}, stateDir: dir })
  const status = await call('GET', `/v2/commerce-payments/${requestId}/status`, apiKey)
  expect(status.body).toMatchObject({
    status: 'partially_captured',
    capturedAmount: '2',
    capturableAmount: '4',
  })
  expect(status.body.transactions.map((x: { type: string }) => x.type)).toEqual(['authorize', 'capture'])
  const rest = await call('POST', `/v2/commerce-payments/${requestId}/capture`, apiKey)
  expect(rest.body).toMatchObject({ status: 'captured', capturedAmount: '6', transactions: [{}, {}, {}] })
  // the watcher read the chain from its start again (it recorded the last capture after the two first steps): the
  // steps recorded before the restart were neither recorded nor announced twice (events are not kept across restarts)
  expect(commerceEvents(apiKey)).toEqual(['commerce_payment.captured'])
})
