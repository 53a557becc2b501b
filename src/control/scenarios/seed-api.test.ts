// The seed API builds state only as the API would: requests through the request model, payments by sending the
// calldata of GET /pay on the chain from a funded seeded wallet (what request-paid and request-partially-paid do).
import { keccak256, parseEventLogs, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { erc20FeeProxyAbi } from '../../chain/index.ts'
import { worldRules } from '../../contract/rules.ts'
import { createSandbox, type Sandbox } from '../../sandbox.ts'
import { createSeedApi } from './seed-api.ts'

let sandbox: Sandbox
beforeAll(async () => {
  sandbox = await createSandbox()
})
afterAll(async () => sandbox?.close())

describe('the seed API', () => {
  it('funds the payer from the rules and pays a request on chain with the /pay calldata', async () => {
    const world = sandbox.shared.tenants.get('seed-api-pay', 'default')
    world.rules = worldRules({ payerBalances: { 'ETH-sepolia-sepolia': '1', 'FAU-sepolia': '100' } })
    const api = await createSeedApi(sandbox.shared, world, 42)
    const payer = await api.payer()
    expect(await api.payer()).toEqual(payer)
    const chain = sandbox.chain!
    const fau = chain.tokens['FAU-sepolia']!
    expect(await chain.balanceOf(fau, payer.address)).toBe(parseUnits('100', 18))
    const payee = api.faker.finance.ethereumAddress()
    const request = await api.createRequest({
      amount: '100',
      invoiceCurrency: 'FAU-sepolia',
      paymentCurrency: 'FAU-sepolia',
      payee,
    })
    const hashes = await api.pay(request.requestId, payer, { amount: '40' })
    expect(hashes).toHaveLength(2) // approval, then the payment
    const receipt = await chain.publicClient.getTransactionReceipt({ hash: hashes[1] as `0x${string}` })
    const [log] = parseEventLogs({
      abi: erc20FeeProxyAbi,
      logs: receipt.logs,
      eventName: 'TransferWithReferenceAndFee',
    })
    expect(log!.topics[1]).toBe(keccak256(request.paymentReference as `0x${string}`))
    expect(log!.args.amount).toBe(parseUnits('40', 18))
    expect(await chain.balanceOf(fau, payer.address)).toBe(parseUnits('60', 18))
  })

  it('fails clearly when no payment is detected in time', async () => {
    const world = sandbox.shared.tenants.get('seed-api-wait', 'default')
    const api = await createSeedApi(sandbox.shared, world, 1)
    const request = await api.createRequest({
      amount: '1',
      invoiceCurrency: 'FAU-sepolia',
      paymentCurrency: 'FAU-sepolia',
      payee: api.faker.finance.ethereumAddress(),
    })
    await expect(api.waitForPayments(request.requestId, 1, 100)).rejects.toThrow(
      /timed out after 100 ms waiting for the chain detector/,
    )
  })

  it('makes the same wallets and data from the same seed', async () => {
    const seedApi = (tenant: string, seed: number) =>
      createSeedApi(sandbox.shared, sandbox.shared.tenants.get(tenant, 'default'), seed)
    const a = await seedApi('seed-api-same-a', 9)
    const b = await seedApi('seed-api-same-b', 9)
    const other = await seedApi('seed-api-same-c', 10)
    expect(a.wallet()).toEqual(b.wallet())
    expect(a.faker.person.fullName()).toBe(b.faker.person.fullName())
    // request ids are drawn from the seed's own id generator: the same under the same seed only
    const body = {
      amount: '1',
      invoiceCurrency: 'FAU-sepolia',
      paymentCurrency: 'FAU-sepolia',
      payee: a.wallet().address,
    }
    const [ra, rb, rc] = await Promise.all([a, b, other].map((api) => api.createRequest(body)))
    expect(ra!.requestId).toBe(rb!.requestId)
    expect(rc!.requestId).not.toBe(ra!.requestId)
  })
})
