import { decodeFunctionData, maxUint256, parseUnits } from 'viem'
import { expect, it } from 'vitest'
import { erc20Abi, erc20FeeProxyAbi, ethFeeProxyAbi } from '../../src/chain/index.ts'
import { requestState } from '../../src/resources/requests/index.ts'
import { createRequestWith, describeTransports, newApiKey, useTransports } from '../support/clients.ts'
import { assertMatchesDocument } from '../support/openapi.ts'

const t = useTransports()

const payee = '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7'
const feeAddress = '0x1111111111111111111111111111111111111111'
const emptyWallet = '0x2222222222222222222222222222222222222222'

describeTransports(
  'pay calldata through %s',
  () => t,
  (client) => {
    const create = (apiKey: string, body: Record<string, unknown>) =>
      createRequestWith(client(), apiKey, body)

    it('answers approve + ERC20FeeProxy payment for a token request, approval first', async () => {
      const apiKey = newApiKey()
      const { requestId, paymentReference } = await create(apiKey, {
        amount: '12.5',
        invoiceCurrency: 'USDC-sepolia',
        paymentCurrency: 'USDC-sepolia',
        payee,
      })
      const res = await client().call('GET', `/v2/request/${requestId}/pay`, { apiKey })
      expect(res.status).toBe(200)
      assertMatchesDocument('full', 'GET', '/v2/request/{requestId}/pay', 200, res.body)
      assertMatchesDocument('v2', 'GET', '/v2/request/{requestId}/pay', 200, res.body)
      const { transactions, metadata } = res.body
      expect(metadata).toEqual({
        stepsRequired: 2,
        needsApproval: true,
        approvalTransactionIndex: 0,
        paymentTransactionIndex: 1,
        hasEnoughBalance: true,
        hasEnoughGas: true,
      })
      const chain = t.sandbox.chain!
      expect(transactions[0]).toMatchObject({
        to: chain.tokens['USDC-sepolia'],
        value: { type: 'BigNumber', hex: '0x00' },
      })
      const approve = decodeFunctionData({ abi: erc20Abi, data: transactions[0].data })
      expect(approve.args).toEqual([chain.contracts.ERC20FeeProxy, maxUint256])
      expect(transactions[1]).toMatchObject({
        to: chain.contracts.ERC20FeeProxy,
        value: { type: 'BigNumber', hex: '0x00' },
      })
      const pay = decodeFunctionData({ abi: erc20FeeProxyAbi, data: transactions[1].data })
      expect(pay.functionName).toBe('transferFromWithReferenceAndFee')
      expect(pay.args).toEqual([
        chain.tokens['USDC-sepolia'],
        payee,
        12_500_000n,
        paymentReference,
        0n,
        '0x000000000000000000000000000000000000dEaD',
      ])
      const status = await client().call('GET', `/v2/request/${requestId}`, { apiKey })
      expect(status.body.isListening).toBe(true)
    })

    it('answers one EthereumFeeProxy call with a BigNumber value for native ETH, fee included', async () => {
      const apiKey = newApiKey()
      const { requestId, paymentReference } = await create(apiKey, {
        amount: '0.001',
        invoiceCurrency: 'ETH-sepolia-sepolia',
        paymentCurrency: 'ETH-sepolia-sepolia',
        payee,
      })
      const res = await client().call('GET', `/v2/request/${requestId}/pay`, {
        apiKey,
        query: { feePercentage: '2.5', feeAddress },
      })
      expect(res.status).toBe(200)
      assertMatchesDocument('full', 'GET', '/v2/request/{requestId}/pay', 200, res.body)
      const [tx] = res.body.transactions
      const amount = parseUnits('0.001', 18)
      const fee = (amount * 25n) / 1000n
      const hex = (amount + fee).toString(16)
      expect(tx.value).toEqual({ type: 'BigNumber', hex: `0x${hex.length % 2 ? '0' : ''}${hex}` })
      expect(tx.to).toBe(t.sandbox.chain!.contracts.EthereumFeeProxy)
      const call = decodeFunctionData({ abi: ethFeeProxyAbi, data: tx.data })
      expect(call.args).toEqual([payee, paymentReference, fee, feeAddress])
      expect(res.body.metadata).toMatchObject({
        stepsRequired: 1,
        needsApproval: false,
        approvalTransactionIndex: null,
        paymentTransactionIndex: 0,
      })
    })

    it('pays part of the amount when asked, and computes the fee on that amount', async () => {
      const apiKey = newApiKey()
      const { paymentReference } = await create(apiKey, {
        amount: '100',
        invoiceCurrency: 'FAU-sepolia',
        paymentCurrency: 'FAU-sepolia',
        payee,
      })
      const res = await client().call('GET', `/v1/request/${paymentReference}/pay`, {
        apiKey,
        query: { amount: '40' },
      })
      expect(res.status).toBe(200)
      assertMatchesDocument('full', 'GET', '/v1/request/{paymentReference}/pay', 200, res.body)
      const pay = decodeFunctionData({ abi: erc20FeeProxyAbi, data: res.body.transactions[1].data })
      expect(pay.args[2]).toBe(40n * 10n ** 18n)
      const v2 = await client().call(
        'GET',
        `/v2/request/${requestState(t.sandbox.shared.tenants.get(apiKey)).requestsByReference.get(paymentReference)}/pay`,
        {
          apiKey,
          query: { amount: '40', feePercentage: '1', feeAddress },
        },
      )
      const withFee = decodeFunctionData({ abi: erc20FeeProxyAbi, data: v2.body.transactions[1].data })
      expect(withFee.args[4]).toBe(4n * 10n ** 17n)
      expect(withFee.args[5]).toBe(feeAddress)
    })

    it('reads balance, allowance and gas of the wallet from the chain', async () => {
      const apiKey = newApiKey()
      const { requestId } = await create(apiKey, {
        amount: '5',
        invoiceCurrency: 'FAU-sepolia',
        paymentCurrency: 'FAU-sepolia',
        payee,
      })
      const rich = t.sandbox.chain!.accounts[5]!.address
      const funded = await client().call('GET', `/v2/request/${requestId}/pay`, {
        apiKey,
        query: { wallet: rich },
      })
      expect(funded.body.metadata).toMatchObject({
        hasEnoughBalance: true,
        hasEnoughGas: true,
        needsApproval: true,
      })
      const empty = await client().call('GET', `/v2/request/${requestId}/pay`, {
        apiKey,
        query: { wallet: emptyWallet },
      })
      expect(empty.status).toBe(200)
      expect(empty.body.metadata).toMatchObject({ hasEnoughBalance: false, hasEnoughGas: false })
    })

    it.each([
      [{ wallet: 'not-an-address' }, 'wallet', 'Invalid Ethereum address'],
      [
        { chain: 'SOLANA', token: 'USDC' },
        'chain',
        "Invalid enum value. Expected 'POLYGON' | 'BASE' | 'OPTIMISM' | 'ETHEREUM' | 'ARBITRUM', received 'SOLANA'",
      ],
      [
        { chain: 'BASE', token: 'DOGE' },
        'token',
        "Invalid enum value. Expected 'USDC' | 'USDT', received 'DOGE'",
      ],
      [{ token: 'USDC' }, 'chain', 'chain and token must be provided together'],
      [{ amount: '0' }, 'amount', 'Amount must be greater than 0'],
      [{ amount: 'abc' }, 'amount', 'Amount must be a positive number'],
      [
        { feePercentage: '101', feeAddress },
        'feePercentage',
        'feePercentage must be a number between 0 and 100',
      ],
      [{ feeAddress }, 'feePercentage', 'feePercentage and feeAddress must be provided together'],
      // two failing checks with one message (format and range) are listed once
      [
        { feePercentage: 'abc', feeAddress },
        'feePercentage',
        'feePercentage must be a number between 0 and 100',
      ],
    ])('answers query errors as Validation failed field lists (%o)', async (query, field, message) => {
      const apiKey = newApiKey()
      const { requestId } = await create(apiKey, {
        amount: '1',
        invoiceCurrency: 'FAU-sepolia',
        paymentCurrency: 'FAU-sepolia',
        payee,
      })
      const res = await client().call('GET', `/v2/request/${requestId}/pay`, { apiKey, query })
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ message: 'Validation failed', errors: [{ field, message }] })
    })

    it('refuses amounts finer than the token and cross-chain FAU as documented', async () => {
      const apiKey = newApiKey()
      const { requestId } = await create(apiKey, {
        amount: '1',
        invoiceCurrency: 'FAU-sepolia',
        paymentCurrency: 'FAU-sepolia',
        payee,
      })
      const fine = await client().call('GET', `/v2/request/${requestId}/pay`, {
        apiKey,
        query: { amount: `0.${'1'.repeat(19)}` },
      })
      expect(fine.status).toBe(400)
      expect(fine.body.errors[0].field).toBe('amount')
      const fau = await client().call('GET', `/v2/request/${requestId}/pay`, {
        apiKey,
        query: { chain: 'BASE', token: 'USDC' },
      })
      expect(fau.body).toEqual({
        statusCode: 400,
        message: 'FAU is not supported in crosschain payment.',
        error: 'Bad Request',
      })
    })

    it('builds calldata on the published mainnet contracts for a network the sandbox does not run', async () => {
      const apiKey = newApiKey()
      const usdc = await create(apiKey, {
        amount: '3',
        invoiceCurrency: 'USDC-mainnet',
        paymentCurrency: 'USDC-mainnet',
        payee,
      })
      const res = await client().call('GET', `/v2/request/${usdc.requestId}/pay`, { apiKey })
      expect(res.status).toBe(200)
      // mainnet's ERC20FeeProxy (the same hex as FAU on Sepolia, as the contract fact sheet notes)
      expect(res.body.transactions[0].to).toBe('0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48')
      expect(res.body.transactions[1].to).toBe('0x370DE27fdb7D1Ff1e1BaA7D11c5820a324Cf623C')
      const eth = await create(apiKey, {
        amount: '1',
        invoiceCurrency: 'ETH-mainnet',
        paymentCurrency: 'ETH-mainnet',
        payee,
      })
      const native = await client().call('GET', `/v2/request/${eth.requestId}/pay`, { apiKey })
      expect(native.body.transactions[0].to).toBe('0xfCFBcfc4f5A421089e3Df45455F7f4985FE2D6a8')
    })
  },
)
