// The commerce escrow's own protections, on a sandbox chain (the API checks the same before it sends anything,
// so these are the ones a wallet calling the contract directly meets): only the payer or the operator authorizes,
// a reference is held once, only the operator captures or voids, only the payer reclaims and only after the
// authorization expired, refunds stay within what was captured.
import { readFileSync } from 'node:fs'
import {
  type Address,
  type BaseError,
  ContractFunctionRevertedError,
  createWalletClient,
  type Hex,
  http,
  parseUnits,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { erc20Abi } from './abis.ts'
import {
  COMMERCE_ESCROW,
  COMMERCE_ESCROW_ADDRESS,
  commerceEscrowAbi,
  type EscrowEvent,
  readEscrowHold,
  watchCommerceEscrow,
} from './commerce-escrow.ts'
import { type StartedChain, startChain } from './start-chain.ts'
import type { ChainCurrency, SandboxAccount } from './types.ts'

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../fixtures/${name}`, import.meta.url), 'utf8'))
const currencies = fixture('currencies.json') as ChainCurrency[]
const sepolia = fixture('networks.json').sepolia.contracts as Record<string, Address>

let chain: StartedChain
let token: Address
let payer: SandboxAccount
let merchant: SandboxAccount
let operator: SandboxAccount
let stranger: SandboxAccount
let nextReference = 1

beforeAll(async () => {
  chain = await startChain({ currencies, contracts: sepolia })
  token = chain.tokens['FAU-sepolia']!
  ;[payer, merchant, operator, stranger] = [1, 2, 3, 4].map((i) => chain.accounts[i]!) as [
    SandboxAccount,
    SandboxAccount,
    SandboxAccount,
    SandboxAccount,
  ]
})
afterAll(async () => chain?.stop())

const units = (n: string) => parseUnits(n, 18)
const wallet = (account: SandboxAccount) =>
  createWalletClient({
    account: privateKeyToAccount(account.privateKey),
    chain: chain.publicClient.chain,
    transport: http(chain.rpcUrl),
  })

async function send(from: SandboxAccount, functionName: string, args: readonly unknown[]) {
  const hash = await wallet(from).writeContract({
    address: COMMERCE_ESCROW_ADDRESS,
    abi: commerceEscrowAbi,
    functionName,
    args,
    chain: null,
  } as never)
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
}

async function approve(from: SandboxAccount, amount: bigint) {
  const hash = await wallet(from).writeContract({
    address: token,
    abi: erc20Abi,
    functionName: 'approve',
    args: [COMMERCE_ESCROW_ADDRESS, amount],
    chain: null,
  })
  await chain.publicClient.waitForTransactionReceipt({ hash })
}

/** The custom error `from` meets calling `functionName` (simulated, nothing sent); undefined when it would pass. */
async function revertOf(from: SandboxAccount, functionName: string, args: readonly unknown[]) {
  try {
    await chain.publicClient.simulateContract({
      account: from.address,
      address: COMMERCE_ESCROW_ADDRESS,
      abi: commerceEscrowAbi,
      functionName,
      args,
    } as never)
    return undefined
  } catch (error) {
    const reverted = (error as BaseError).walk((e) => e instanceof ContractFunctionRevertedError)
    return (reverted as ContractFunctionRevertedError | null)?.data?.errorName
  }
}

async function now(): Promise<bigint> {
  return (await chain.publicClient.getBlock()).timestamp
}

const zero = '0x0000000000000000000000000000000000000000'

/** Authorization arguments of a fresh reference: 10 FAU, expiries 1 h / 2 h / 3 h from chain time, no fee. */
async function terms(
  overrides: { amount?: bigint; authorizationIn?: bigint; maxFeeBps?: number; feeReceiver?: Address } = {},
) {
  const reference = `0x${(nextReference++).toString(16).padStart(16, '0')}` as Hex
  const t = await now()
  const authorization = t + (overrides.authorizationIn ?? 7200n)
  return [
    reference,
    payer.address,
    merchant.address,
    operator.address,
    token,
    overrides.amount ?? units('10'),
    units('10'),
    t + 3600n > authorization ? authorization : t + 3600n,
    authorization,
    authorization + 3600n,
    overrides.maxFeeBps ?? 0,
    overrides.feeReceiver ?? zero,
  ] as const
}

describe('the commerce escrow on the sandbox chain', () => {
  it('is installed at its fixed address', async () => {
    expect(chain.contracts[COMMERCE_ESCROW]).toBe(COMMERCE_ESCROW_ADDRESS)
    expect(await chain.publicClient.getCode({ address: COMMERCE_ESCROW_ADDRESS })).toMatch(
      /^0x[0-9a-f]{100,}/,
    )
  })

  it('lets only the payer or the operator authorize, once per reference, within the maximum', async () => {
    await approve(payer, units('100'))
    const args = await terms()
    expect(await revertOf(stranger, 'authorizePayment', args)).toBe('NotPayerOrOperator')
    const above = await terms({ amount: units('11') })
    expect(await revertOf(payer, 'authorizePayment', above)).toBe('AmountAboveMaximum')
    await send(operator, 'authorizePayment', args)
    expect(await revertOf(payer, 'authorizePayment', args)).toBe('AlreadyAuthorized')
    const hold = await readEscrowHold(chain, args[0])
    expect(hold).toMatchObject({ payer: payer.address, capturableAmount: units('10'), capturedAmount: 0n })
  })

  it('lets only the operator capture or void, and never more than is held', async () => {
    const args = await terms()
    await send(payer, 'authorizePayment', args)
    const [reference] = args
    expect(await revertOf(merchant, 'capturePayment', [reference, units('1'), 0, zero])).toBe('NotOperator')
    expect(await revertOf(payer, 'voidPayment', [reference])).toBe('NotOperator')
    expect(await revertOf(operator, 'capturePayment', [reference, units('11'), 0, zero])).toBe(
      'AmountAboveCapturable',
    )
    // the payer authorized no fee: the operator takes none
    expect(
      await revertOf(operator, 'capturePayment', [reference, units('1'), 10_000, operator.address]),
    ).toBe('FeeAboveAuthorized')
    expect(await revertOf(operator, 'capturePayment', [reference, units('1'), 100, zero])).toBe(
      'FeeAboveAuthorized',
    )
    expect(await revertOf(payer, 'reclaimPayment', [reference])).toBe('AuthorizationNotExpired')
    await send(operator, 'capturePayment', [reference, units('4'), 0, zero])
    // refunds: only the operator or the merchant, never above what was captured
    expect(await revertOf(stranger, 'refundPayment', [reference, units('1')])).toBe('NotOperatorOrMerchant')
    expect(await revertOf(merchant, 'refundPayment', [reference, units('5')])).toBe('AmountAboveRefundable')
    await send(operator, 'voidPayment', [reference])
    expect(await revertOf(operator, 'voidPayment', [reference])).toBe('NothingToCapture')
    expect(await revertOf(operator, 'capturePayment', [reference, units('1'), 0, zero])).toBe(
      'NothingToCapture',
    )
    expect(await readEscrowHold(chain, reference)).toMatchObject({
      capturableAmount: 0n,
      capturedAmount: units('4'),
      voided: true,
    })
  })

  it('holds captures to the fee the payer authorized: at most maxFeeBps, to its feeReceiver only', async () => {
    const feeReceiver = chain.accounts[5]!.address
    expect(await revertOf(payer, 'authorizePayment', await terms({ maxFeeBps: 10_001, feeReceiver }))).toBe(
      'FeeAboveMaximum',
    )
    expect(await revertOf(payer, 'authorizePayment', await terms({ maxFeeBps: 100 }))).toBe('ZeroAddress')
    const args = await terms({ maxFeeBps: 500, feeReceiver })
    await send(payer, 'authorizePayment', args)
    const [reference] = args
    expect(await readEscrowHold(chain, reference)).toMatchObject({ maxFeeBps: 500, feeReceiver })
    expect(await revertOf(operator, 'capturePayment', [reference, units('1'), 10_000, feeReceiver])).toBe(
      'FeeAboveAuthorized',
    )
    expect(await revertOf(operator, 'capturePayment', [reference, units('1'), 500, stranger.address])).toBe(
      'FeeReceiverNotAuthorized',
    )
    const before = await chain.balanceOf(token, feeReceiver)
    await send(operator, 'capturePayment', [reference, units('2'), 500, feeReceiver])
    expect((await chain.balanceOf(token, feeReceiver)) - before).toBe(units('0.1'))
  })

  it('closes capture at the authorization expiry and refunds at the refund expiry', async () => {
    const args = await terms({ authorizationIn: 60n })
    await send(payer, 'authorizePayment', args)
    const [reference] = args
    await send(operator, 'capturePayment', [reference, units('2'), 0, zero])
    await chain.testClient.setNextBlockTimestamp({ timestamp: args[8] })
    await chain.testClient.mine({ blocks: 1 })
    expect(await revertOf(operator, 'capturePayment', [reference, units('1'), 0, zero])).toBe(
      'AuthorizationExpired',
    )
    expect(await revertOf(stranger, 'reclaimPayment', [reference])).toBe('NotPayer')
    await send(payer, 'reclaimPayment', [reference])
    await chain.testClient.setNextBlockTimestamp({ timestamp: args[9] })
    await chain.testClient.mine({ blocks: 1 })
    await approve(merchant, units('2'))
    expect(await revertOf(merchant, 'refundPayment', [reference, units('1')])).toBe('RefundWindowClosed')
  })

  it.each([
    ['a reset connection', 'ECONNRESET'],
    ['a timed-out read', 'ETIMEDOUT'],
    ["a gateway's page instead of JSON-RPC", 'ENOTJSONRPC'],
  ])(
    'reads an event again when a read after its log failed (%s): it moves past a block once it is applied',
    async (_, code) => {
      await approve(payer, units('100'))
      const args = await terms()
      let failures = 1
      const request = chain.publicClient.request as (args: {
        method: string
        params: unknown[]
      }) => Promise<unknown>
      // the chain as the watcher sees it: the first read of a block fails (a node restarting, stalled, or behind a
      // gateway between two reads)
      const flaky = {
        ...chain,
        publicClient: {
          ...chain.publicClient,
          request: async (call: { method: string; params: unknown[] }) => {
            if (call.method === 'eth_getBlockByNumber' && failures > 0) {
              failures--
              throw Object.assign(new Error(`read ${code}`), { code })
            }
            return request(call)
          },
        },
      } as unknown as typeof chain
      const applied: EscrowEvent[] = []
      await send(operator, 'authorizePayment', args)
      const logged: string[] = []
      const watcher = watchCommerceEscrow(
        flaky,
        { apply: (events) => void applied.push(...events) },
        (message) => logged.push(message),
      )
      try {
        await watcher.sync()
        await watcher.sync()
        expect(failures).toBe(0)
        expect(applied.filter((e) => e.paymentReference === args[0]).map((e) => e.name)).toEqual([
          'PaymentAuthorized',
        ])
        // read again, not skipped as a log the node answered wrongly about
        expect(logged.filter((m) => m.includes('skipped'))).toEqual([])
      } finally {
        await watcher.stop()
      }
    },
  )

  it('skips a log it cannot read and goes on: a malformed log (a block number the node refuses) is not read forever', async () => {
    await approve(payer, units('100'))
    const args = await terms()
    await send(operator, 'authorizePayment', args)
    const request = chain.publicClient.request as (args: {
      method: string
      params: unknown[]
    }) => Promise<unknown>
    // a node whose logs carry a bad log index beside the good ones
    const broken = {
      ...chain,
      publicClient: {
        ...chain.publicClient,
        request: async (call: { method: string; params: unknown[] }) => {
          const answer = await request(call)
          if (call.method !== 'eth_getLogs') return answer
          const logs = answer as { logIndex: string }[]
          return logs.length ? [{ ...logs[0], logIndex: 'not a number', blockNumber: '0xzz' }, ...logs] : logs
        },
      },
    } as unknown as typeof chain
    const applied: EscrowEvent[] = []
    const logged: string[] = []
    const watcher = watchCommerceEscrow(
      broken,
      { apply: (events) => void applied.push(...events) },
      (message) => {
        logged.push(message)
      },
    )
    try {
      await watcher.sync()
      expect(applied.map((e) => e.paymentReference)).toContain(args[0])
      expect(logged.filter((m) => m.includes('could not be read and was skipped')).length).toBeGreaterThan(0)
    } finally {
      await watcher.stop()
    }
  })

  it('logs a batch its sink refuses and goes on: a poisoned event does not stop later ones', async () => {
    await approve(payer, units('100'))
    const poisoned = await terms()
    await send(operator, 'authorizePayment', poisoned)
    const applied: EscrowEvent[] = []
    const logged: string[] = []
    const sink = {
      apply: (events: EscrowEvent[]) => {
        if (events.some((e) => e.paymentReference === poisoned[0])) throw new Error('poisoned')
        applied.push(...events)
      },
    }
    const watcher = watchCommerceEscrow(chain, sink, (message) => {
      logged.push(message)
    })
    try {
      await watcher.sync()
      const later = await terms()
      await send(operator, 'authorizePayment', later)
      await watcher.sync()
      expect(applied.map((e) => e.paymentReference)).toContain(later[0])
      expect(logged.filter((m) => m.includes('could not be applied'))).toHaveLength(1)
    } finally {
      await watcher.stop()
    }
  })
})
