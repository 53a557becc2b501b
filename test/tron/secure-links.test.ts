import { TronWeb } from 'tronweb'
import { generatePrivateKey } from 'viem/accounts'
import { expect, it } from 'vitest'
import { securePaymentState } from '../../src/resources/secure-payments/index.ts'
import { describeTransports, keyedCall, newApiKey } from '../support/clients.ts'
import { waitFor } from '../support/wait.ts'
import { useTronSandbox } from './setup.ts'
import { freshTronAddress, signStep, type TronStep, tronPayoutBody } from './steps.ts'

const sb = useTronSandbox()

describeTransports(
  'Tron secure payment links driven by TronWeb through %s',
  () => sb.t,
  { http: 6, msw: 7 },
  (client, payerIndex) => {
    const call = keyedCall(client)

    /** A Tron USDT payout link of `amount` created by `creator` (to a fresh recipient unless given). */
    const tronPayout = (apiKey: string, creator: string, amount: string, recipient?: string) =>
      call('POST', '/v2/secure-payments/payouts', apiKey, tronPayoutBody(creator, amount, recipient))

    /** `GET /v2/secure-payments/{token}/pay` for `wallet`. */
    const linkPay = (apiKey: string, token: string, wallet: string) =>
      call('GET', `/v2/secure-payments/${token}/pay?wallet=${wallet}`, apiKey)

    it('pays a Tron secure payout link through /{token}/tron/broadcast: sponsored resources, $3.99 fee leg, link completed', async () => {
      const apiKey = newApiKey()
      const payer = sb.tron.accounts[payerIndex]!
      const recipient = freshTronAddress()
      const hook = await call('POST', '/v2/webhook', apiKey, { url: sb.receiver.url })
      sb.receiver.secret = hook.body.secret
      const created = await call('POST', '/v2/secure-payments/payouts', apiKey, {
        recipient,
        creatorWalletAddress: payer.address,
        network: 'tron',
        currency: 'USDT-tron',
        amount: '250',
        reference: 'INVOICE-2026-042',
      })
      expect(created.status).toBe(201)
      const resourceFee = created.body.feePlan.fees.find((f: { type: string }) => f.type === 'tron_resource')
      expect(resourceFee).toMatchObject({
        fixedAmountUsd: '3.99',
        calculatedAmountUsd: '3.99',
        feeBearer: 'payer',
      })
      expect(created.body.feePlan.payerTotalAmountUsd).toBe('253.99')
      const { token } = created.body
      const pay = await linkPay(apiKey, token, payer.address)
      expect(pay.status).toBe(200)
      expect(pay.body.metadata).toMatchObject({ transactionSponsorshipFeeUsd: '3.99', hasEnoughGas: true })
      const legs = pay.body.feeBundle.fees.map((f: { feeType: string }) => f.feeType)
      expect(legs).toEqual(['tron_resource'])
      const tw = sb.tronWebOf(payer.privateKey)
      const trxBefore = await tw.trx.getBalance(payer.address)
      const usdt = await tw.contract().at(sb.tron.tokens['USDT-tron']!)
      const treasury = resourceFee.destinationRef.tronAddress as string
      const treasuryBefore = BigInt(await usdt.balanceOf(treasury).call())
      for (const step of pay.body.transactions) {
        const built = await signStep(tw, payer.address, step)
        const sent = await call('POST', `/v2/secure-payments/${token}/tron/broadcast`, apiKey, {
          signedTransaction: built.signed,
        })
        expect(sent.status, sent.text).toBe(200)
        expect(sent.body).toMatchObject({ result: true, txid: built.transaction.txID })
      }
      await waitFor(async () => {
        const res = await call('GET', `/v2/secure-payments/${token}`, apiKey)
        return res.status === 409 || res.body?.status === 'completed' ? true : undefined
      })
      expect(BigInt(await usdt.balanceOf(recipient).call())).toBe(250_000_000n)
      expect(BigInt(await usdt.balanceOf(treasury).call())).toBe(treasuryBefore + 3_990_000n)
      // sponsored: the payer burnt no TRX
      expect(await tw.trx.getBalance(payer.address)).toBe(trxBefore)
      const delivered = await waitFor(() =>
        sb.receiver.received.find(
          (r) => r.body?.event === 'payment.confirmed' && r.body.requestId === created.body.requestIds[0],
        ),
      )
      expect(delivered.signatureValid).toBe(true)
      // a transaction the link does not expect is refused before it reaches the chain
      const other = await tronPayout(apiKey, payer.address, '1', recipient)
      const stranger = await tw.transactionBuilder.triggerSmartContract(
        sb.tron.tokens['USDT-tron']!,
        'transfer(address,uint256)',
        { feeLimit: 100_000_000 },
        [
          { type: 'address', value: recipient },
          { type: 'uint256', value: 5 },
        ],
        payer.address,
      )
      const refused = await call('POST', `/v2/secure-payments/${other.body.token}/tron/broadcast`, apiKey, {
        signedTransaction: await tw.trx.sign(stranger.transaction),
      })
      expect(refused.status).toBe(400)
      expect(refused.body.message).toMatch(/does not match/)
      // the page's broadcast route takes only steps of its own link: another link's payment step is refused there
      const third = await tronPayout(apiKey, payer.address, '1', recipient)
      const otherPay = await linkPay(apiKey, other.body.token, payer.address)
      const step = otherPay.body.transactions.find((s: { functionSelector: string }) =>
        s.functionSelector.startsWith('transferFromWithReferenceAndFee'),
      )
      const built = await signStep(tw, payer.address, step)
      const signedTransaction = built.signed
      const pagePost = (linkToken: string) =>
        fetch(`${sb.t.server.url}/__sandbox/secure-payments/${linkToken}/tron/broadcast`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ signedTransaction }),
        })
      const elsewhere = await pagePost(third.body.token)
      expect(elsewhere.status).toBe(400)
      expect((await elsewhere.json()).message).toMatch(/does not match/)
      const own = await pagePost(other.body.token)
      expect(own.status).toBe(200)
      expect(await own.json()).toMatchObject({ result: true, txid: built.transaction.txID })
    })

    it('a Tron link follows what executed on chain: fee leg first or payment first, each leg once, completed only with both, a reverted fee leg not counted', async () => {
      const apiKey = newApiKey()
      const payer = sb.tron.accounts[payerIndex]!
      const tw = sb.tronWebOf(payer.privateKey)
      const usdt = await tw.contract().at(sb.tron.tokens['USDT-tron']!)
      const newLink = async (amount: string) => {
        const res = await tronPayout(apiKey, payer.address, amount)
        expect(res.status, res.text).toBe(201)
        const treasury = res.body.feePlan.fees.find((f: { type: string }) => f.type === 'tron_resource')
          .destinationRef.tronAddress as string
        return { token: res.body.token as string, requestId: res.body.requestIds[0] as string, treasury }
      }
      const payOf = async (token: string) => {
        const res = await linkPay(apiKey, token, payer.address)
        expect(res.status, res.text).toBe(200)
        return res.body as { transactions: TronStep[]; metadata: Record<string, unknown> }
      }
      /** the fee leg is the transfer(address,uint256) to the treasury; the payment steps are the others */
      const isFee = (step: TronStep) => step.functionSelector === 'transfer(address,uint256)'
      const broadcast = async (token: string, step: TronStep) => {
        return call('POST', `/v2/secure-payments/${token}/tron/broadcast`, apiKey, {
          signedTransaction: (await signStep(tw, payer.address, step)).signed,
        })
      }
      const linkStatus = async (requestId: string) =>
        (await call('GET', `/v2/secure-payments?requestId=${requestId}`, apiKey)).body.status as string
      const requestPaid = async (requestId: string) =>
        (await call('GET', `/v2/request/${requestId}`, apiKey)).body.hasBeenPaid as boolean

      // 1. the fee leg first: counted once, the request unpaid, the link pending; /pay then answers the payment only
      const first = await newLink('5')
      const treasuryBefore = BigInt(await usdt.balanceOf(first.treasury).call())
      const steps = (await payOf(first.token)).transactions
      const feeStep = steps.find(isFee)!
      expect(steps.at(-1)).toBe(feeStep)
      const fee = await broadcast(first.token, feeStep)
      expect(fee.status, fee.text).toBe(200)
      expect(BigInt(await usdt.balanceOf(first.treasury).call())).toBe(treasuryBefore + 3_990_000n)
      expect(await requestPaid(first.requestId)).toBe(false)
      expect(await linkStatus(first.requestId)).toBe('pending')
      const again = await broadcast(first.token, feeStep)
      expect(again.status).toBe(400)
      expect(again.body.message).toMatch(/resource fee of this secure payment has already been sent/)
      expect(BigInt(await usdt.balanceOf(first.treasury).call())).toBe(treasuryBefore + 3_990_000n)
      const rest = await payOf(first.token)
      expect(rest.transactions.some(isFee)).toBe(false)
      expect(rest.transactions.length).toBe(steps.length - 1)
      expect(rest.metadata).toMatchObject({ requiredAmount: '5', stepsRequired: steps.length - 1 })
      for (const step of rest.transactions) expect((await broadcast(first.token, step)).status).toBe(200)
      await waitFor(async () => ((await linkStatus(first.requestId)) === 'completed' ? true : undefined))
      expect(await requestPaid(first.requestId)).toBe(true)
      expect((await broadcast(first.token, feeStep)).status).toBe(409)
      expect(BigInt(await usdt.balanceOf(first.treasury).call())).toBe(treasuryBefore + 3_990_000n)

      // 2. the payment first: the request is paid (it executed), the link is not completed until its fee leg executes
      const second = await newLink('6')
      const all = (await payOf(second.token)).transactions
      for (const step of all.filter((x) => !isFee(x)))
        expect((await broadcast(second.token, step)).status).toBe(200)
      await waitFor(async () => ((await requestPaid(second.requestId)) ? true : undefined))
      expect(await linkStatus(second.requestId)).toBe('pending')
      const feeOnly = await payOf(second.token)
      expect(feeOnly.transactions).toEqual([all.find(isFee)])
      expect(feeOnly.metadata).toMatchObject({
        requiredAmount: '3.99',
        sourceAmount: '0',
        stepsRequired: 1,
        paymentTransactionIndex: 0,
      })
      // a second payment is refused before it reaches the chain
      const twice = await broadcast(
        second.token,
        all.find((x) => !isFee(x) && x.functionSelector !== 'approve(address,uint256)')!,
      )
      expect(twice.status).toBe(400)
      expect(twice.body.message).toMatch(/only its resource-fee leg remains/)
      const before = BigInt(await usdt.balanceOf(second.treasury).call())
      expect((await broadcast(second.token, feeOnly.transactions[0]!)).status).toBe(200)
      expect(BigInt(await usdt.balanceOf(second.treasury).call())).toBe(before + 3_990_000n)
      await waitFor(async () => ((await linkStatus(second.requestId)) === 'completed' ? true : undefined))

      // 3. a fee leg that reverts on chain (its payer holds no USDT) counts for nothing: /pay still asks for it
      const key = generatePrivateKey().slice(2)
      const poor = { address: TronWeb.address.fromPrivateKey(key) as string, tw: sb.tronWebOf(key) }
      const third = await tronPayout(apiKey, poor.address, '1')
      const poorPay = await linkPay(apiKey, third.body.token, poor.address)
      expect(poorPay.body.metadata.hasEnoughBalance).toBe(false)
      const poorFee = poorPay.body.transactions.find(isFee)
      const sent = await call('POST', `/v2/secure-payments/${third.body.token}/tron/broadcast`, apiKey, {
        signedTransaction: (await signStep(poor.tw, poor.address, poorFee)).signed,
      })
      expect(sent.status, sent.text).toBe(200)
      expect((await poor.tw.trx.getTransactionInfo(sent.body.txid)).receipt.result).toBe('REVERT')
      const stillDue = await linkPay(apiKey, third.body.token, poor.address)
      expect(stillDue.body.transactions.some(isFee)).toBe(true)
      expect(stillDue.body.metadata.requiredAmount).toBe('4.99')

      // 4. two fee legs of one link sent at once (two signed transactions, both valid on chain): one is broadcast
      const fourth = await newLink('2')
      const fourthFee = (await payOf(fourth.token)).transactions.find(isFee)!
      const legs = [await signStep(tw, payer.address, fourthFee)]
      while (legs.length < 2) {
        const next = await signStep(tw, payer.address, {
          ...fourthFee,
          feeLimit: fourthFee.feeLimit + legs.length,
        })
        if (next.transaction.txID !== legs[0]!.transaction.txID) legs.push(next)
      }
      const treasuryAtFourth = BigInt(await usdt.balanceOf(fourth.treasury).call())
      const racing = await Promise.all(
        legs.map((leg) =>
          call('POST', `/v2/secure-payments/${fourth.token}/tron/broadcast`, apiKey, {
            signedTransaction: leg.signed,
          }),
        ),
      )
      expect(racing.map((r) => r.status).sort()).toEqual([200, 400])
      expect(BigInt(await usdt.balanceOf(fourth.treasury).call())).toBe(treasuryAtFourth + 3_990_000n)

      // 5. the payment sent again right after it executed (before the detector saw it), or twice at once: once
      const recipient = freshTronAddress()
      const fifth = await tronPayout(apiKey, payer.address, '3', recipient)
      const fifthSteps = (await payOf(fifth.body.token)).transactions.filter((x) => !isFee(x))
      const payment = fifthSteps.at(-1)!
      for (const step of fifthSteps.slice(0, -1))
        expect((await broadcast(fifth.body.token, step)).status).toBe(200)
      const payments = [await signStep(tw, payer.address, payment)]
      while (payments.length < 3) {
        const next = await signStep(tw, payer.address, {
          ...payment,
          feeLimit: payment.feeLimit + payments.length,
        })
        if (payments.every((p) => p.transaction.txID !== next.transaction.txID)) payments.push(next)
      }
      const send = (p: { signed: unknown }) =>
        call('POST', `/v2/secure-payments/${fifth.body.token}/tron/broadcast`, apiKey, {
          signedTransaction: p.signed,
        })
      const atOnce = await Promise.all(payments.slice(0, 2).map(send))
      const after = await send(payments[2]!)
      expect(BigInt(await usdt.balanceOf(recipient).call())).toBe(3_000_000n)
      expect([...atOnce.map((r) => r.status), after.status].sort()).toEqual([200, 400, 400])
    })

    it('settles a fee-leg claim its call left behind (a restart with --state-dir) by what the chain holds', async () => {
      const apiKey = newApiKey()
      const payer = sb.tron.accounts[payerIndex]!
      const tw = sb.tronWebOf(payer.privateKey)
      const created = await tronPayout(apiKey, payer.address, '2')
      expect(created.status, created.text).toBe(201)
      const token = created.body.token as string
      const links = securePaymentState(sb.t.sandbox.shared.tenants.get(apiKey)).securePayments
      const isFee = (step: TronStep) => step.functionSelector === 'transfer(address,uint256)'
      const feeStep = (await linkPay(apiKey, token, payer.address)).body.transactions.find(isFee) as TronStep
      const claimed = (txId: string) =>
        links.update(token, (d) => {
          d.resourceFee = { txId, executed: false }
        })
      // claimed, never broadcast: the leg is due again, and accepted
      await claimed('ab'.repeat(32))
      const due = await linkPay(apiKey, token, payer.address)
      expect(due.body.transactions.some(isFee)).toBe(true)
      expect(due.body.metadata.requiredAmount).toBe('5.99')
      const sent = await call('POST', `/v2/secure-payments/${token}/tron/broadcast`, apiKey, {
        signedTransaction: (await signStep(tw, payer.address, feeStep)).signed,
      })
      expect(sent.status, sent.text).toBe(200)
      // broadcast and executed, but its record cut short: it counts as executed, and is not asked for again
      await claimed(sent.body.txid)
      const rest = await linkPay(apiKey, token, payer.address)
      expect(rest.body.transactions.some(isFee)).toBe(false)
      expect(links.get(token)!.resourceFee).toEqual({ txId: sent.body.txid, executed: true })
      const again = await call('POST', `/v2/secure-payments/${token}/tron/broadcast`, apiKey, {
        signedTransaction: (await signStep(tw, payer.address, { ...feeStep, feeLimit: feeStep.feeLimit + 1 }))
          .signed,
      })
      expect(again.status).toBe(400)
      expect(again.body.message).toMatch(/already been sent/)
    })
  },
)
