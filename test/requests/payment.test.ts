// The calldata the sandbox returns executes for real: sent from a funded default account through the
// sandbox's own /rpc, it emits Request Network's TransferWithReferenceAndFee with the returned reference.
import {
  type Address,
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  keccak256,
  parseEventLogs,
  parseUnits,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { erc20FeeProxyAbi, ethFeeProxyAbi, sendApiTransactions } from '../../src/chain/index.ts'
import { type RunningServer, startServer } from '../../src/server.ts'
import type { ApiTransaction } from '../support/chain.ts'
import type { Loose } from '../support/loose.ts'

let server: RunningServer
const apiKey = 'e2e-payment'
const payee: Address = '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7'
const feeAddress: Address = '0x1111111111111111111111111111111111111111'

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'x-api-key': apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  })
  return { status: res.status, body: (await res.json()) as Loose }
}

beforeAll(async () => {
  server = await startServer()
})
afterAll(async () => server?.close())

function clients() {
  const chainInfo = server.sandbox.chain!
  const chain = defineChain({
    id: chainInfo.chainId,
    name: 'sandbox',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [`${server.url}/rpc`] } },
  })
  const account = privateKeyToAccount(chainInfo.accounts[1]!.privateKey)
  const transport = http(`${server.url}/rpc`)
  return {
    account,
    publicClient: createPublicClient({ chain, transport, pollingInterval: 50 }),
    wallet: createWalletClient({ account, chain, transport }),
  }
}

async function sendAll(transactions: ApiTransaction[]) {
  const chain = server.sandbox.chain!
  return sendApiTransactions(chain, chain.accounts[1]!.privateKey, transactions, {
    rpcUrl: `${server.url}/rpc`,
  })
}

describe('pay calldata executes on the embedded chain', () => {
  it('pays an ERC-20 request (approval first) and the proxy logs the returned reference, amount, fee and payee', async () => {
    const { account } = clients()
    const created = await api('POST', '/v2/request', {
      amount: '25.5',
      invoiceCurrency: 'USDC-sepolia',
      paymentCurrency: 'USDC-sepolia',
      payee,
    })
    expect(created.status).toBe(201)
    const pay = await api(
      'GET',
      `/v2/request/${created.body.requestId}/pay?wallet=${account.address}&feePercentage=1&feeAddress=${feeAddress}`,
    )
    expect(pay.status).toBe(200)
    expect(pay.body.metadata).toMatchObject({
      needsApproval: true,
      hasEnoughBalance: true,
      hasEnoughGas: true,
    })
    const chain = server.sandbox.chain!
    const token = chain.tokens['USDC-sepolia']!
    const before = await chain.balanceOf(token, payee)
    const receipts = await sendAll(pay.body.transactions)
    const logs = parseEventLogs({
      abi: erc20FeeProxyAbi,
      logs: receipts.at(-1)!.logs,
      eventName: 'TransferWithReferenceAndFee',
    })
    expect(logs).toHaveLength(1)
    const log = logs[0]!
    expect(log.address.toLowerCase()).toBe(chain.contracts.ERC20FeeProxy!.toLowerCase())
    expect(log.topics[1]).toBe(keccak256(created.body.paymentReference))
    expect(log.args).toMatchObject({
      tokenAddress: token,
      to: payee,
      amount: parseUnits('25.5', 6),
      feeAmount: parseUnits('0.255', 6),
      feeAddress,
    })
    expect(await chain.balanceOf(token, payee)).toBe(before + parseUnits('25.5', 6))

    // the allowance left covers a smaller payment of another request (a paid request's /pay caps to nothing: 400)
    const next = await api('POST', '/v2/request', {
      amount: '5',
      invoiceCurrency: 'USDC-sepolia',
      paymentCurrency: 'USDC-sepolia',
      payee,
    })
    const again = await api(
      'GET',
      `/v2/request/${next.body.requestId}/pay?wallet=${account.address}&amount=1`,
    )
    expect(again.body.metadata.needsApproval).toBe(false)
    expect(again.body.transactions).toHaveLength(1)
  })

  it('pays a native ETH request through EthereumFeeProxy and the log carries the returned reference', async () => {
    const created = await api('POST', '/v2/request', {
      amount: '0.2',
      invoiceCurrency: 'ETH-sepolia-sepolia',
      paymentCurrency: 'ETH-sepolia-sepolia',
      payee,
    })
    const pay = await api('GET', `/v1/request/${created.body.paymentReference}/pay`)
    expect(pay.status).toBe(200)
    const chain = server.sandbox.chain!
    const before = await chain.balanceOf('native', payee)
    const [receipt] = await sendAll(pay.body.transactions)
    const logs = parseEventLogs({
      abi: ethFeeProxyAbi,
      logs: receipt!.logs,
      eventName: 'TransferWithReferenceAndFee',
    })
    expect(logs).toHaveLength(1)
    expect(logs[0]!.address.toLowerCase()).toBe(chain.contracts.EthereumFeeProxy!.toLowerCase())
    expect(logs[0]!.topics[1]).toBe(keccak256(created.body.paymentReference))
    expect(logs[0]!.args).toMatchObject({ to: payee, amount: parseUnits('0.2', 18), feeAmount: 0n })
    expect(await chain.balanceOf('native', payee)).toBe(before + parseUnits('0.2', 18))
  })

  it('serves health and chain info on the same port', async () => {
    const health = await fetch(`${server.url}/__sandbox/health`)
    expect(health.status).toBe(200)
    const info = (await (await fetch(`${server.url}/__sandbox/chain`)).json()) as Loose
    expect(info).toMatchObject({ chainId: 11155111, network: 'sepolia', rpcUrl: `${server.url}/rpc` })
    expect(info.contracts.ERC20FeeProxy).toBe('0x399F5EE127ce7432E4921a61b8CF52b0af52cbfE')
    expect(info.contracts.EthereumFeeProxy).toBe('0xe11BF2fDA23bF0A98365e1A4c04A87C9339e8687')
    expect(info.tokens['FAU-sepolia']).toBe('0x370DE27fdb7D1Ff1e1BaA7D11c5820a324Cf623C')
    expect(info.accounts[0].address).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')
  })
})
