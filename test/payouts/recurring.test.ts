// Recurring payouts end to end: created through the API (HTTP and MSW), approved and signed by a viem wallet,
// executed by the sandbox relayer on the chain as the tenant clock moves, read back through the API.
import { type Address, keccak256, parseEventLogs, parseUnits } from 'viem'
import { expect, it } from 'vitest'
import { erc20FeeProxyAbi } from '../../src/chain/index.ts'
import { payoutOfChildRequest } from '../../src/resources/payouts/index.ts'
import { advance } from '../support/chain.ts'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'
import type { Loose } from '../support/loose.ts'
import { assertMatchesDocument, assertMatchesExample } from '../support/openapi.ts'
import {
  activePayout,
  freshAddress,
  fundedPayer,
  recurringBody,
  sendApiTransaction,
  signPermit,
  startOfNextDay,
  transferToken,
} from '../support/payouts.ts'

const t = useTransports()

const DAY = 86_400
const perPayment = parseUnits('10.1', 18) // 10 FAU + 1% fee
const chain = () => t.sandbox.chain!
const fau = () => chain().tokens['FAU-sepolia']!

/** The ERC20FeeProxy logs carrying `reference` (what payment detection matches on). */
async function feeProxyLogs(reference: string) {
  const logs = await chain().publicClient.getLogs({
    address: chain().contracts.ERC20FeeProxy,
    event: erc20FeeProxyAbi[1],
    args: { paymentReference: reference as `0x${string}` },
    fromBlock: 0n,
  })
  for (const log of logs) expect(log.topics[1]).toBe(keccak256(reference as `0x${string}`))
  return logs
}

describeTransports(
  'recurring payouts on chain through %s',
  () => t,
  (client) => {
    it('pays a DAILY payout of 3 on chain as the clock moves 3 days, completes it, and moves exactly 3 × (amount + fee)', async () => {
      const apiKey = newApiKey()
      const payer = await fundedPayer(chain(), fau())
      const body = recurringBody(payer.address)
      const created = await client().call('POST', '/v2/payouts', { apiKey, body })
      expect(created.status).toBe(201)
      assertMatchesDocument('full', 'POST', '/v2/payouts', 201, created.body)
      assertMatchesExample('v2', 'POST', '/v2/payouts', 201, 'recurringPayment', created.body, [
        'transactions.value', // BigNumber JSON, as every transaction of the sandbox (the example writes "0x0")
        'recurringPaymentPermit.types.SchedulePermit', // the contract's real field names, not the stale example's
        'recurringPaymentPermit.values',
      ])
      const { domain, types, values } = created.body.recurringPaymentPermit
      expect(domain).toEqual({
        name: 'ERC20RecurringPaymentProxy',
        version: '1',
        chainId: 11155111,
        verifyingContract: '0xb6C7448458d8616B00eb8f93883d0081Fa2aDec9',
      })
      expect(Object.keys(types)).toEqual(['SchedulePermit'])
      expect(values).toMatchObject({ subscriber: payer.address, amount: parseUnits('10', 18).toString() })
      expect(created.body.metadata).toEqual({
        stepsRequired: 2,
        totalNeededAllowance: (3n * perPayment).toString(),
        currentAllowance: '0',
        additionalAllowanceNeeded: (3n * perPayment).toString(),
        existingPaymentsAmount: '0',
      })
      const [approval] = created.body.transactions
      expect(approval.value).toEqual({ type: 'BigNumber', hex: '0x00' })
      await sendApiTransaction(chain(), payer, approval)
      const proxy = domain.verifyingContract as Address
      expect(await chain().allowance(fau(), payer.address, proxy)).toBe(3n * perPayment)

      const before = {
        payer: await chain().balanceOf(fau(), payer.address),
        payee: await chain().balanceOf(fau(), body.payee),
        fee: await chain().balanceOf(fau(), body.feeAddress),
      }
      const permitSignature = await signPermit(payer, created.body.recurringPaymentPermit)
      const activated = await client().call('POST', `/v2/payouts/recurring/${created.body.id}`, {
        apiKey,
        body: { permitSignature },
      })
      expect(activated.status).toBe(201)
      expect(activated.body).toEqual({
        message: 'Recurring payment activated successfully',
        id: created.body.id,
        status: 'active',
      })
      assertMatchesDocument('v2', 'POST', '/v2/payouts/recurring/{id}', 201, activated.body)
      assertMatchesDocument('full', 'POST', '/v2/payouts/recurring/{id}', 201, activated.body)

      await advance(client(), apiKey, 3 * DAY)
      const status = await client().call('GET', `/v2/payouts/recurring/${created.body.id}`, { apiKey })
      expect(status.status).toBe(200)
      assertMatchesDocument('v2', 'GET', '/v2/payouts/recurring/{id}', 200, status.body)
      assertMatchesDocument('full', 'GET', '/v2/payouts/recurring/{id}', 200, status.body)
      expect(status.body).toMatchObject({
        status: 'completed',
        processedPayments: 3,
        totalPayments: 3,
        nextPaymentDate: null,
      })
      expect(status.body.payments).toHaveLength(3)
      expect(status.body.requests).toHaveLength(3)
      expect(new Set(status.body.requests.map((r: Loose) => r.paymentReference)).size).toBe(3)
      for (const [i, payment] of status.body.payments.entries()) {
        expect(payment).toMatchObject({ amount: '10', txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) })
        const reference = status.body.requests[i].paymentReference
        const [log, ...more] = await feeProxyLogs(reference)
        expect(more).toEqual([])
        expect(log!.transactionHash).toBe(payment.txHash)
        expect(log!.args).toMatchObject({
          tokenAddress: fau(),
          to: body.payee,
          amount: parseUnits('10', 18),
          feeAmount: parseUnits('0.1', 18),
          feeAddress: body.feeAddress,
        })
      }
      expect(status.body.lastPaymentDate).toBe(status.body.payments[2].timestamp)
      expect(before.payer - (await chain().balanceOf(fau(), payer.address))).toBe(3n * perPayment)
      expect((await chain().balanceOf(fau(), body.payee)) - before.payee).toBe(parseUnits('30', 18))
      expect((await chain().balanceOf(fau(), body.feeAddress)) - before.fee).toBe(parseUnits('0.3', 18))

      // Each execution is its own request, linked to the payout's original request, and detected as paid.
      await t.sandbox.detectors.get('sepolia')!.sync()
      const child = await client().call('GET', `/v2/request/${status.body.requests[0].requestId}`, { apiKey })
      expect(child.body.originalRequestId).toMatch(/^01[0-9a-f]{64}$/)
      expect(child.body).toMatchObject({
        hasBeenPaid: true,
        isListening: false,
        payments: [{ type: 'recurring' }],
      })
      expect(payoutOfChildRequest(t.sandbox.shared.tenants.get(apiKey), child.body.requestId)).toEqual({
        id: created.body.id,
        index: 1,
      })
      const events = t.sandbox.shared.tenants.get(apiKey).events
      const confirmed = events.filter((e) => e.type === 'payment.confirmed').map((e) => e.payload)
      expect(confirmed).toHaveLength(3)
      expect(confirmed.map((p) => p.txHash)).toEqual(status.body.payments.map((p: Loose) => p.txHash))
      for (const p of confirmed) expect(p).toMatchObject({ recurringPayment: { id: created.body.id } })
      const recurring = events.filter((e) => e.type === 'request.recurring').map((e) => e.payload)
      expect(recurring.map((p) => p.requestId)).toEqual(status.body.requests.map((r: Loose) => r.requestId))
      for (const p of recurring) expect(p.originalRequestId).toBe(child.body.originalRequestId)

      // A completed payout cannot be cancelled, and nothing more is paid however far the clock moves.
      const cancel = await client().call('PATCH', `/v2/payouts/recurring/${created.body.id}`, {
        apiKey,
        body: { action: 'cancel' },
      })
      expect(cancel.status).toBe(400)
      expect(cancel.body).toEqual({
        statusCode: 400,
        message: 'Cannot cancel a completed recurring payment',
        error: 'Bad Request',
      })
      assertMatchesDocument('v2', 'PATCH', '/v2/payouts/recurring/{id}', 400, cancel.body)
    })

    it('pauses when the payer is emptied after payment 1, then catches up and completes after a refund and unpause', async () => {
      const apiKey = newApiKey()
      const payer = await fundedPayer(chain(), fau(), '30.3')
      const body = recurringBody(payer.address, { startDate: await startOfNextDay(client(), apiKey) })
      const { id } = await activePayout(client(), apiKey, chain(), payer, body)
      await advance(client(), apiKey, 3600)
      const first = await client().call('GET', `/v2/payouts/recurring/${id}`, { apiKey })
      expect(first.body).toMatchObject({ status: 'active', processedPayments: 1 })
      assertMatchesDocument('v2', 'GET', '/v2/payouts/recurring/{id}', 200, first.body)
      expect(new Date(first.body.nextPaymentDate).getTime()).toBeGreaterThan(
        new Date(first.body.lastPaymentDate).getTime(),
      )

      const parking = freshAddress()
      const left = await chain().balanceOf(fau(), payer.address)
      await transferToken(chain(), payer, fau(), parking, left)
      await advance(client(), apiKey, DAY)
      const paused = await client().call('GET', `/v2/payouts/recurring/${id}`, { apiKey })
      expect(paused.body).toMatchObject({
        status: 'paused',
        processedPayments: 1,
        nextPaymentDate: null,
        failureCount: 1,
        failureReason: 'Insufficient token balance',
      })
      assertMatchesDocument('v2', 'GET', '/v2/payouts/recurring/{id}', 200, paused.body)
      assertMatchesExample('v2', 'GET', '/v2/payouts/recurring/{id}', 200, 'paused', paused.body)
      const failed = t.sandbox.shared.tenants.get(apiKey).events.filter((e) => e.type === 'payment.failed')
      expect(failed.map((e) => e.payload)).toEqual([
        expect.objectContaining({
          subStatus: 'insufficient_funds',
          recurringPayment: { id },
          requestId: paused.body.requests[1].requestId,
        }),
      ])

      // Paused: the clock passes the last due date and nothing happens.
      await advance(client(), apiKey, DAY)
      expect(
        (await client().call('GET', `/v2/payouts/recurring/${id}`, { apiKey })).body.processedPayments,
      ).toBe(1)

      await chain().fund(fau(), payer.address, 2n * perPayment)
      const unpaused = await client().call('PATCH', `/v2/payouts/recurring/${id}`, {
        apiKey,
        body: { action: 'unpause' },
      })
      expect(unpaused.status).toBe(200)
      expect(unpaused.body).toMatchObject({
        id,
        status: 'active',
        metadata: { processedPayments: 1, totalPayments: 3, nextPaymentDate: expect.any(String) },
      })
      assertMatchesDocument('v2', 'PATCH', '/v2/payouts/recurring/{id}', 200, unpaused.body)
      assertMatchesExample('full', 'PATCH', '/v2/payouts/recurring/{id}', 200, 'unpaused', unpaused.body)
      await advance(client(), apiKey, 1)
      const done = await client().call('GET', `/v2/payouts/recurring/${id}`, { apiKey })
      expect(done.body).toMatchObject({ status: 'completed', processedPayments: 3, nextPaymentDate: null })
      expect(done.body.requests).toHaveLength(3)
      expect(await chain().balanceOf(fau(), payer.address)).toBe(0n)
      for (const r of done.body.requests) expect(await feeProxyLogs(r.paymentReference)).toHaveLength(1)
      const times = done.body.payments.map((p: Loose) => new Date(p.timestamp).getTime())
      expect([...times].sort((a, b) => a - b)).toEqual(times)
    })

    it('cancels mid-way: nothing more is paid however far the clock moves, and the returned allowance reset executes', async () => {
      const apiKey = newApiKey()
      const payer = await fundedPayer(chain(), fau())
      const { id, created } = await activePayout(
        client(),
        apiKey,
        chain(),
        payer,
        recurringBody(payer.address, { startDate: await startOfNextDay(client(), apiKey) }),
      )
      await advance(client(), apiKey, 3600)
      const cancel = await client().call('PATCH', `/v2/payouts/recurring/${id}`, {
        apiKey,
        body: { action: 'cancel' },
      })
      expect(cancel.status).toBe(200)
      assertMatchesDocument('v2', 'PATCH', '/v2/payouts/recurring/{id}', 200, cancel.body)
      assertMatchesExample('full', 'PATCH', '/v2/payouts/recurring/{id}', 200, 'cancelled', cancel.body)
      expect(cancel.body).toMatchObject({
        id,
        status: 'cancelled',
        metadata: {
          remainingPayments: 2,
          remainingAmount: (2n * perPayment).toString(),
          processedPayments: 1,
          totalPayments: 3,
        },
      })
      const proxy = created.recurringPaymentPermit.domain.verifyingContract as Address
      const [reset] = cancel.body.transactions
      expect(reset).toMatchObject({ to: fau(), value: '0x0' })
      expect(await chain().allowance(fau(), payer.address, proxy)).toBe(2n * perPayment)
      const receipt = await sendApiTransaction(chain(), payer, reset)
      expect(parseEventLogs({ abi: erc20FeeProxyAbi, logs: receipt.logs })).toEqual([])
      expect(await chain().allowance(fau(), payer.address, proxy)).toBe(0n)

      const balance = await chain().balanceOf(fau(), payer.address)
      await advance(client(), apiKey, 30 * DAY)
      const status = await client().call('GET', `/v2/payouts/recurring/${id}`, { apiKey })
      expect(status.body).toMatchObject({ status: 'cancelled', processedPayments: 1, nextPaymentDate: null })
      expect(status.body.payments).toHaveLength(1)
      expect(await chain().balanceOf(fau(), payer.address)).toBe(balance)
      expect(t.sandbox.shared.tenants.get(apiKey).clock.pending()).toEqual([])
    })
  },
)
