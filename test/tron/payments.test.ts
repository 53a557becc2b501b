import { TronWeb } from 'tronweb'
import { expect, it } from 'vitest'
import { describeTransports, keyedCall, newApiKey } from '../support/clients.ts'
import { waitFor } from '../support/wait.ts'
import { useTronSandbox } from './setup.ts'
import { freshTronAddress, sendStep, type TronStep } from './steps.ts'

const sb = useTronSandbox()

describeTransports(
  'Tron payments driven by TronWeb through %s',
  () => sb.t,
  { http: 6, msw: 7 },
  (client, payerIndex) => {
    const call = keyedCall(client)

    /** Pays the API's Tron steps with TronWeb from `payer`; answers the payment's txid and the TRX burnt. */
    async function payWithTronWeb(payer: { address: string; privateKey: string }, transactions: TronStep[]) {
      const tw = sb.tronWebOf(payer.privateKey)
      let fees = 0
      let txid = ''
      for (const step of transactions) {
        expect(step).toMatchObject({
          to: expect.stringMatching(/^T/),
          value: 0,
          feeLimit: expect.any(Number),
        })
        const sent = await sendStep(tw, payer.address, step)
        fees += sent.fee
        txid = sent.txid
      }
      return { txid, fees }
    }

    async function untilPaid(apiKey: string, requestId: string) {
      return waitFor(async () => {
        const res = await call('GET', `/v2/request/${requestId}`, apiKey)
        return res.body.hasBeenPaid ? res.body : undefined
      })
    }
    it('pays a USDT-tron request: T-addresses, Tron steps, detected, webhook signed, balances through TronWeb', async () => {
      const apiKey = newApiKey()
      const payer = sb.tron.accounts[payerIndex]!
      const payee = freshTronAddress()
      const hook = await call('POST', '/v2/webhook', apiKey, { url: sb.receiver.url })
      sb.receiver.secret = hook.body.secret
      const created = await call('POST', '/v2/request', apiKey, {
        payee,
        amount: '12.5',
        invoiceCurrency: 'USDT-tron',
        paymentCurrency: 'USDT-tron',
      })
      expect(created.status).toBe(201)
      const pay = await call(
        'GET',
        `/v2/request/${created.body.requestId}/pay?wallet=${payer.address}`,
        apiKey,
      )
      expect(pay.status).toBe(200)
      expect(pay.body.metadata).toMatchObject({ network: 'tron', hasEnoughBalance: true, hasEnoughGas: true })
      expect(pay.body.transactions.at(-1)).toMatchObject({
        to: sb.tron.contracts.ERC20FeeProxy,
        functionSelector: 'transferFromWithReferenceAndFee(address,address,uint256,bytes,uint256,address)',
      })
      const tw = sb.tronWebOf(payer.privateKey)
      const trxBefore = await tw.trx.getBalance(payer.address)
      const { txid, fees } = await payWithTronWeb(payer, pay.body.transactions)
      const status = await untilPaid(apiKey, created.body.requestId)
      expect(status).toMatchObject({ status: 'paid', hasBeenPaid: true })
      const payments = await call('GET', `/v2/payments?requestId=${created.body.requestId}`, apiKey)
      // Tron gas fees in the breakdown: the TRX the payment transaction burnt (its receipt's fee)
      const payment = payments.body.payments[0]
      expect(payment).toMatchObject({ sourceNetwork: 'tron', sourceTxHash: txid })
      const gas = payment.fees.find((f: { type: string }) => f.type === 'gas')
      expect(gas).toMatchObject({ currency: 'TRX', network: 'tron' })
      const paymentInfo = await sb.tronWebOf(payer.privateKey).trx.getTransactionInfo(txid)
      expect(Number(gas.amount)).toBeCloseTo(paymentInfo.fee / 1e6, 6)
      // the webhook: signed, naming the Tron transaction
      const delivered = await waitFor(() =>
        sb.receiver.received.find(
          (r) => r.body?.event === 'payment.confirmed' && r.body.requestId === created.body.requestId,
        ),
      )
      expect(delivered.signatureValid).toBe(true)
      expect(delivered.body.txHash).toBe(txid)
      // balances read back through TronWeb: the payee got the USDT, the payer burnt exactly the receipts' fees
      const usdt = await tw.contract().at(sb.tron.tokens['USDT-tron']!)
      expect(BigInt(await usdt.balanceOf(payee).call())).toBe(12_500_000n)
      expect(await tw.trx.getBalance(payer.address)).toBe(trxBefore - fees)
    })

    it('funds a fresh TronWeb account with the faucet (TRX-tron, USDT-tron, USDC-tron): it reads them back and pays', async () => {
      const apiKey = newApiKey()
      const fresh = TronWeb.createRandom()
      const privateKey = fresh.privateKey.replace(/^0x/, '')
      const holder = TronWeb.address.fromPrivateKey(privateKey) as string
      const tw = sb.tronWebOf(privateKey)
      expect(await tw.trx.getBalance(holder)).toBe(0)
      const fund = (currency: string, amount: string, address = holder) =>
        call('POST', '/__sandbox/faucet', apiKey, { address, currency, amount })
      const trx = await fund('TRX-tron', '50.5')
      expect(trx.status, trx.text).toBe(200)
      expect(trx.body).toMatchObject({
        address: holder,
        currency: 'TRX-tron',
        network: 'tron',
        balance: '50.5',
        txHash: null,
      })
      expect(await tw.trx.getBalance(holder)).toBe(50_500_000)
      for (const [currency, amount] of [
        ['USDT-tron', '20'],
        ['USDC-tron', '7.25'],
      ] as const) {
        const res = await fund(currency, amount)
        expect(res.status, res.text).toBe(200)
        expect(res.body).toMatchObject({
          address: holder,
          balance: amount,
          txHash: expect.stringMatching(/^0x/),
        })
        const token = await tw.contract().at(sb.tron.tokens[currency]!)
        expect(BigInt(await token.balanceOf(holder).call())).toBe(BigInt(Number(amount) * 1e6))
      }
      // TRX is set, not added (a wallet can be emptied for "not enough TRX" tests); `TRX` is the same coin
      expect((await fund('TRX', '0')).body).toMatchObject({ currency: 'TRX-tron', balance: '0' })
      expect(await tw.trx.getBalance(holder)).toBe(0)
      expect((await fund('TRX-tron', '40')).body.balance).toBe('40')
      // refusals: sun has 6 decimals; a T-address on an EVM chain; an EVM token's native id on Tron does not exist
      const finer = await fund('TRX-tron', '1.0000001')
      expect(finer.status).toBe(400)
      expect(finer.body.message).toMatch(/more decimals than TRX-tron supports \(6\)/)
      expect((await fund('FAU-sepolia', '1')).status).toBe(400)
      expect((await fund('ETH-tron-tron', '1')).status).toBe(400)
      // the funded account pays a USDT-tron request on its own TRX: readiness says so, the fees come off its TRX
      const payee = freshTronAddress()
      const created = await call('POST', '/v2/request', apiKey, {
        payee,
        amount: '10',
        invoiceCurrency: 'USDT-tron',
        paymentCurrency: 'USDT-tron',
      })
      expect(created.status).toBe(201)
      const pay = await call('GET', `/v2/request/${created.body.requestId}/pay?wallet=${holder}`, apiKey)
      expect(pay.status).toBe(200)
      expect(pay.body.metadata).toMatchObject({
        hasEnoughBalance: true,
        hasEnoughGas: true,
        nativeBalance: '40',
      })
      const { fees } = await payWithTronWeb({ address: holder, privateKey }, pay.body.transactions)
      expect(fees).toBeGreaterThan(0)
      await untilPaid(apiKey, created.body.requestId)
      const usdt = await tw.contract().at(sb.tron.tokens['USDT-tron']!)
      expect(BigInt(await usdt.balanceOf(payee).call())).toBe(10_000_000n)
      expect(BigInt(await usdt.balanceOf(holder).call())).toBe(10_000_000n)
      expect(await tw.trx.getBalance(holder)).toBe(40_000_000 - fees)
    })

    it('pays a single Tron payout (POST /v2/payouts with a T payee) the same way', async () => {
      const apiKey = newApiKey()
      const payer = sb.tron.accounts[payerIndex]!
      const payee = freshTronAddress()
      const res = await call('POST', '/v2/payouts', apiKey, {
        payee,
        amount: '3',
        invoiceCurrency: 'USDT-tron',
        paymentCurrency: 'USDT-tron',
        payerWallet: payer.address,
        reference: 'PAYOUT-001',
      })
      expect(res.status).toBe(201)
      await payWithTronWeb(payer, res.body.transactions)
      await untilPaid(apiKey, res.body.requestId)
      const usdt = await sb.tronWebOf(payer.privateKey).contract().at(sb.tron.tokens['USDT-tron']!)
      expect(BigInt(await usdt.balanceOf(payee).call())).toBe(3_000_000n)
    })

    it('refuses T-addresses on EVM currencies, and Tron batches with the documented message', async () => {
      const apiKey = newApiKey()
      const onEvm = await call('POST', '/v2/request', apiKey, {
        payee: freshTronAddress(),
        amount: '1',
        invoiceCurrency: 'FAU-sepolia',
        paymentCurrency: 'FAU-sepolia',
      })
      expect(onEvm.status).toBe(400)
      const batch = await call('POST', '/v2/payouts/batch', apiKey, {
        requests: [1, 2].map(() => ({
          payee: freshTronAddress(),
          amount: '1',
          invoiceCurrency: 'USDT-tron',
          paymentCurrency: 'USDT-tron',
        })),
        payer: sb.tron.accounts[payerIndex]!.address,
      })
      const link = await call('POST', '/v2/secure-payments', apiKey, {
        requests: [1, 2].map(() => ({ payee: freshTronAddress(), currency: 'USDT-tron', amount: '1' })),
      })
      expect(link.status).toBe(400)
      expect(link.body.message).toBe(
        'Batch payments are not supported for TRON networks. Please submit individual payment requests.',
      )
      expect(batch.status).toBe(400)
      expect(batch.body.message).toBe(
        'Batch payments are not supported for TRON networks. Please submit individual payment requests.',
      )
    })
  },
)
