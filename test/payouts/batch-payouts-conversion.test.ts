// Batch payouts with conversion rows (issue 31 item 3). api-features/batch-payments.mdx: "Mixed Payment Types: Support
// ERC20, native tokens, and conversion payments in the same batch"; its Batch Payouts example sends USD and EUR rows;
// "Supports mixed ERC20, native, and conversion requests". The rows run on anvil through BatchConversionPayments
// (paymentNetworkId 0 through Erc20ConversionProxy, 4 through EthConversionProxy), each priced as the single
// conversion payment of GET /v2/request/{id}/pay is, and every request is detected paid from its own logs.
import { type Address, decodeFunctionData, type Hex, parseEther, parseUnits } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { expect, it } from 'vitest'
import {
  batchConversionPaymentsAbi,
  erc20ConversionProxyAbi,
  ethConversionProxyAbi,
} from '../../src/chain/index.ts'
import { createRequestWith, describeTransports, newApiKey, useTransports } from '../support/clients.ts'
import { walletOn } from '../support/crosschain.ts'
import type { Loose } from '../support/loose.ts'
import { waitFor } from '../support/wait.ts'

const t = useTransports(newApiKey, { networks: ['sepolia'] })

const BATCH = '/v2/payouts/batch'
const feeAddress: Address = '0x1111111111111111111111111111111111111111'
const freshPayee = () => privateKeyToAccount(generatePrivateKey()).address

interface RequestDetail {
  recipient: Address
  requestAmount: bigint
  path: readonly Address[]
  paymentReference: Hex
  feeAmount: bigint
  maxToSpend: bigint
  maxRateTimespan: bigint
}

/** The batchPayments call of a batch answer: its metaDetails by paymentNetworkId. */
function decodeBatch(data: Hex) {
  const call = decodeFunctionData({ abi: batchConversionPaymentsAbi, data })
  expect(call.functionName).toBe('batchPayments')
  const [metaDetails, pathsToUSD] = call.args as unknown as [
    { paymentNetworkId: bigint; requestDetails: RequestDetail[] }[],
    Address[][],
  ]
  expect(pathsToUSD).toEqual([])
  return metaDetails
}

describeTransports(
  'batch payouts with conversion through %s',
  () => t,
  { http: [3, 5] as const, msw: [4, 6] as const },
  (client, [payerIndex, secondPayerIndex]) => {
    const sepolia = () => t.sandbox.chains.get('sepolia')!
    const batch = (apiKey: string, body: unknown) => client().call('POST', BATCH, { apiKey, body })
    /** within a millionth: the feeds answer with 8 decimals, so an inverted rate (1/1.08) is rounded on chain */
    const near = (value: bigint, expected: bigint) => {
      const diff = value > expected ? value - expected : expected - value
      expect(diff <= expected / 1_000_000n, `${value} vs ${expected}`).toBe(true)
    }

    /** Each request reads as paid through the API (detected from its own logs) and got its payment.confirmed. */
    async function expectPaid(apiKey: string, ids: string[]) {
      for (const id of ids) {
        const status = await waitFor(async () => {
          const res = await client().call('GET', `/v2/request/${id}`, { apiKey })
          return res.body.hasBeenPaid ? res.body : undefined
        })
        expect(status).toMatchObject({ hasBeenPaid: true, status: 'paid' })
      }
      const confirmed = await waitFor(() => {
        const seen = t.sandbox.shared.tenants
          .get(apiKey)
          .events.filter((e) => e.type === 'payment.confirmed')
          .map((e) => e.payload.requestId as string)
        return seen.length >= ids.length ? seen : undefined
      })
      expect(confirmed.sort()).toEqual([...ids].sort())
    }

    it('pays USD and EUR rows (ERC-20 and ETH) beside same-currency rows in one transaction (batch-payments.mdx "Mixed Payment Types")', async () => {
      const apiKey = newApiKey()
      const payer = walletOn(client(), sepolia(), payerIndex)
      const usdc = sepolia().tokens['USDC-sepolia']!
      const fau = sepolia().tokens['FAU-sepolia']!
      const rows = {
        usdInUsdc: {
          payee: freshPayee(),
          amount: '10',
          invoiceCurrency: 'USD',
          paymentCurrency: 'USDC-sepolia',
        },
        eurInFau: {
          payee: freshPayee(),
          amount: '25.50',
          invoiceCurrency: 'EUR',
          paymentCurrency: 'FAU-sepolia',
        },
        // an invoicing app's default row: USD paid in ETH
        usdInEth: {
          payee: freshPayee(),
          amount: '30',
          invoiceCurrency: 'USD',
          paymentCurrency: 'ETH-sepolia-sepolia',
        },
        fau: {
          payee: freshPayee(),
          amount: '2',
          invoiceCurrency: 'FAU-sepolia',
          paymentCurrency: 'FAU-sepolia',
        },
        eth: {
          payee: freshPayee(),
          amount: '0.01',
          invoiceCurrency: 'ETH-sepolia-sepolia',
          paymentCurrency: 'ETH-sepolia-sepolia',
        },
      }
      const res = await batch(apiKey, {
        requests: Object.values(rows),
        payer: payer.account.address,
        feePercentage: '1',
        feeAddress,
      })
      expect(res.status, JSON.stringify(res.body)).toBe(201)
      const tx = res.body.batchPaymentTransaction
      expect(tx.to).toBe(sepolia().contracts.BatchConversionPayments)
      const metaDetails = decodeBatch(tx.data)
      // conversion ERC-20 first, native conversion last (the contract requires it)
      expect(metaDetails.map((m) => m.paymentNetworkId)).toEqual([0n, 2n, 3n, 4n])
      const [erc20Conversion, , , nativeConversion] = metaDetails

      // each conversion row is what /pay answers for that request, with the same fee
      const { requests } = (await client().call('GET', '/v2/request', { apiKey })).body as Loose
      const idOf = (payee: string) => requests.find((r: Loose) => r.payee === payee)?.requestId as string
      const ids = Object.values(rows).map((row) => idOf(row.payee))
      expect(ids.every(Boolean)).toBe(true)
      const single = async (payee: string) =>
        (
          await client().call('GET', `/v2/request/${idOf(payee)}/pay`, {
            apiKey,
            query: { wallet: payer.account.address, feePercentage: '1', feeAddress },
          })
        ).body.transactions.at(-1) as { to: Address; data: Hex; value: { hex: Hex } }
      const usdcPay = decodeFunctionData({
        abi: erc20ConversionProxyAbi,
        data: (await single(rows.usdInUsdc.payee)).data,
      }).args
      const usdcRow = erc20Conversion!.requestDetails.find((d) => d.recipient === rows.usdInUsdc.payee)!
      expect(usdcRow).toMatchObject({
        requestAmount: 10n * 10n ** 8n, // fiat padded to Chainlink's 8 decimals
        feeAmount: 10n ** 7n,
        path: usdcPay[2],
      })
      expect([usdcRow.requestAmount, usdcRow.feeAmount, usdcRow.maxToSpend]).toEqual([
        usdcPay[1],
        usdcPay[4],
        usdcPay[6],
      ])
      const ethSingle = await single(rows.usdInEth.payee)
      const ethPay = decodeFunctionData({ abi: ethConversionProxyAbi, data: ethSingle.data }).args
      const ethRow = nativeConversion!.requestDetails[0]!
      expect([ethRow.recipient, ethRow.requestAmount, ethRow.path, ethRow.feeAmount]).toEqual([
        rows.usdInEth.payee,
        ethPay[1],
        ethPay[2],
        ethPay[4],
      ])
      expect(ethRow.maxToSpend).toBe(BigInt(ethSingle.value.hex))
      // the value is the same-currency ETH row (amount + fee) and the ETH conversion row's maxToSpend
      expect(BigInt(tx.value.hex)).toBe(parseEther('0.0101') + ethRow.maxToSpend)

      const before = {
        usdc: await sepolia().balanceOf(usdc, payer.account.address),
        fau: await sepolia().balanceOf(fau, payer.account.address),
      }
      for (const approval of res.body.ERC20ApprovalTransactions) await payer.send(approval)
      const receipt = await payer.send(tx)
      expect(receipt.status).toBe('success')

      // the payees got the converted amounts at the fixture's rates (USD 1, EUR 1.08, ETH 2500 USD)
      expect(await sepolia().balanceOf(usdc, rows.usdInUsdc.payee)).toBe(10_000_000n)
      near(await sepolia().balanceOf(fau, rows.eurInFau.payee), parseUnits('27.54', 18))
      near(await sepolia().balanceOf('native', rows.usdInEth.payee), parseEther('0.012'))
      expect(await sepolia().balanceOf(fau, rows.fau.payee)).toBe(parseUnits('2', 18))
      expect(await sepolia().balanceOf('native', rows.eth.payee)).toBe(parseEther('0.01'))
      // the payer spent what the rows cost (fee included), not the slippage allowance: the batch sent back the rest
      expect(before.usdc - (await sepolia().balanceOf(usdc, payer.account.address))).toBe(10_100_000n)
      near(
        before.fau - (await sepolia().balanceOf(fau, payer.account.address)),
        // 25.50 EUR + its 1 % fee counted in euro cents (0.25), at 1.08; then 2 FAU + 1 %
        parseUnits('27.81', 18) + parseUnits('2.02', 18),
      )
      await expectPaid(apiKey, ids)
    })

    it("pays existing conversion requests by requestIds at the key's own rates (POST /__sandbox/rates), as /pay prices them", async () => {
      const apiKey = newApiKey()
      const payer = walletOn(client(), sepolia(), secondPayerIndex)
      const set = await client().call('POST', '/__sandbox/rates', {
        apiKey,
        body: { rates: [{ from: 'EUR', to: 'USD', rate: '1.25' }] },
      })
      expect(set.status).toBe(200)
      const payees = [freshPayee(), freshPayee()]
      const created = [
        await createRequestWith(client(), apiKey, {
          amount: '8',
          invoiceCurrency: 'EUR',
          paymentCurrency: 'USDC-sepolia',
          payee: payees[0],
        }),
        await createRequestWith(client(), apiKey, {
          amount: '4',
          invoiceCurrency: 'EUR',
          paymentCurrency: 'ETH-sepolia-sepolia',
          payee: payees[1],
        }),
      ]
      const res = await batch(apiKey, {
        requestIds: created.map((c) => c.requestId),
        payer: payer.account.address,
      })
      expect(res.status, JSON.stringify(res.body)).toBe(201)
      const tx = res.body.batchPaymentTransaction
      // the key's own conversion stack pays through its own batch contract, wired to that stack's proxies
      expect(tx.to).not.toBe(sepolia().contracts.BatchConversionPayments)
      expect(decodeBatch(tx.data).map((m) => m.paymentNetworkId)).toEqual([0n, 4n])
      for (const approval of res.body.ERC20ApprovalTransactions) {
        expect(approval.to).toBe(sepolia().tokens['USDC-sepolia'])
        await payer.send(approval)
      }
      await payer.send(tx)
      // 8 EUR at 1.25 USD = 10 USDC; 4 EUR = 5 USD = 0.002 ETH at 2500
      expect(await sepolia().balanceOf(sepolia().tokens['USDC-sepolia']!, payees[0]!)).toBe(10_000_000n)
      near(await sepolia().balanceOf('native', payees[1]!), parseEther('0.002'))
      await expectPaid(
        apiKey,
        created.map((c) => c.requestId),
      )
    })

    it('refuses, before storing anything, a conversion row the sandbox has no route for', async () => {
      const apiKey = newApiKey()
      const res = await batch(apiKey, {
        requests: [
          {
            payee: freshPayee(),
            amount: '1',
            invoiceCurrency: 'FAU-sepolia',
            paymentCurrency: 'FAU-sepolia',
          },
          {
            payee: freshPayee(),
            amount: '1',
            invoiceCurrency: 'CNY',
            paymentCurrency: 'ETH-sepolia-sepolia',
          },
        ],
      })
      expect(res.status).toBe(400)
      expect(res.body.message).toBe('No conversion route from CNY to ETH-sepolia-sepolia')
      const list = await client().call('GET', '/v2/request', { apiKey })
      expect(list.body.requests ?? []).toEqual([])
    })
  },
)
