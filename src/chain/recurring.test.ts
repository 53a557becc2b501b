import { readFileSync } from 'node:fs'
import {
  type Address,
  type BaseError,
  ContractFunctionRevertedError,
  createWalletClient,
  getAddress,
  type Hex,
  http,
  keccak256,
  parseAbi,
  parseUnits,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { recurringProxyAbi } from './abis.ts'
import {
  permitStruct,
  RECURRING_PROXY,
  SCHEDULE_PERMIT_TYPES,
  type SchedulePermitValues,
  schedulePermitDomain,
} from './recurring.ts'
import { createRelayer, type Relayer, RelayFailure } from './relayer.ts'
import { type StartedChain, startChain } from './start-chain.ts'
import type { ChainCurrency, SandboxAccount } from './types.ts'

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../fixtures/${name}`, import.meta.url), 'utf8'))
const currencies = fixture('currencies.json') as ChainCurrency[]
const sepolia = fixture('networks.json').sepolia.contracts as Record<string, Address>
const erc20 = parseAbi([
  'function approve(address spender, uint256 amount) returns (bool)',
  'function transfer(address to, uint256 amount) returns (bool)',
])
const PAYEE = getAddress('0x000000000000000000000000000000000000bee5')
const FEE = getAddress('0x000000000000000000000000000000000000fee5')
const DAY = 86400

let chain: StartedChain
let relayer: Relayer
let token: Address
let nonce = 1n

beforeAll(async () => {
  chain = await startChain({ currencies, contracts: sepolia })
  relayer = createRelayer(chain)!
  token = chain.tokens['FAU-sepolia']!
})
afterAll(async () => chain?.stop())

const proxy = () => chain.contracts[RECURRING_PROXY]!
const wallet = (account: SandboxAccount) =>
  createWalletClient({
    account: privateKeyToAccount(account.privateKey),
    chain: chain.publicClient.chain,
    transport: http(chain.rpcUrl),
  })

async function send(account: SandboxAccount, functionName: 'approve' | 'transfer', to: Address, n: bigint) {
  const hash = await wallet(account).writeContract({
    address: token,
    abi: erc20,
    functionName,
    args: [to, n],
    chain: null,
  })
  await chain.publicClient.waitForTransactionReceipt({ hash })
}

async function chainNow(): Promise<number> {
  return Number((await chain.publicClient.getBlock()).timestamp)
}

/** A permit of `account` for 3 daily payments of 10 FAU + 0.1 fee, first due now; signed by `signer`. */
async function schedule(
  account: SandboxAccount,
  overrides: Partial<SchedulePermitValues> = {},
  signer: SandboxAccount = account,
) {
  const values: SchedulePermitValues = {
    subscriber: account.address,
    token,
    recipient: PAYEE,
    feeAddress: FEE,
    amount: parseUnits('10', 18).toString(),
    feeAmount: parseUnits('0.1', 18).toString(),
    relayerFee: '0',
    periodSeconds: DAY,
    firstPayment: await chainNow(),
    totalPayments: 3,
    nonce: `0x${(nonce++).toString(16).padStart(64, '0')}` as Hex,
    deadline: (await chainNow()) + 30 * DAY,
    strictOrder: true,
    ...overrides,
  }
  const signature = await privateKeyToAccount(signer.privateKey).signTypedData({
    domain: schedulePermitDomain(chain.chainId, proxy()),
    types: SCHEDULE_PERMIT_TYPES,
    primaryType: 'SchedulePermit',
    message: permitStruct(values),
  })
  return { values, signature }
}

/** The custom error name the proxy reverts with when `from` calls trigger (simulated, nothing sent). */
async function revertOf(
  s: { values: SchedulePermitValues; signature: Hex },
  index: number,
  from: Address = relayer.address,
): Promise<string | undefined> {
  try {
    await chain.publicClient.simulateContract({
      account: from,
      address: proxy(),
      abi: recurringProxyAbi,
      functionName: 'triggerRecurringPayment',
      args: [permitStruct(s.values), s.signature, index, '0x0123456789abcdef'],
    })
    return undefined
  } catch (error) {
    const reverted = (error as BaseError).walk((e) => e instanceof ContractFunctionRevertedError)
    return (reverted as ContractFunctionRevertedError | null)?.data?.errorName
  }
}

const trigger = (s: { values: SchedulePermitValues; signature: Hex }, index: number, ref: Hex) =>
  relayer.trigger({
    permit: s.values,
    signature: s.signature,
    index,
    paymentReference: ref,
    dueAt: new Date(0),
  })

describe('the recurring payment proxy on the sandbox chain', () => {
  it('sits at the published Sepolia address with the deployer as owner, the relayer role and ERC20FeeProxy', async () => {
    expect(proxy()).toBe(getAddress('0xb6C7448458d8616B00eb8f93883d0081Fa2aDec9'))
    const read = (functionName: string, args: unknown[] = []) =>
      chain.publicClient.readContract({
        address: proxy(),
        abi: recurringProxyAbi,
        functionName,
        args,
      } as never)
    const role = (await read('RELAYER_ROLE')) as Hex
    expect(role).toBe(keccak256(new TextEncoder().encode('RELAYER_ROLE')))
    expect(await read('hasRole', [role, chain.roles.relayer.address])).toBe(true)
    expect(await read('hasRole', [role, chain.accounts[0]!.address])).toBe(false)
    expect(await read('owner')).toBe(chain.roles.deployer.address)
    expect(await read('erc20FeeProxy')).toBe(sepolia.ERC20FeeProxy)
    const domain = (await read('eip712Domain')) as unknown[]
    expect(domain.slice(1, 5)).toEqual(['ERC20RecurringPaymentProxy', '1', 11155111n, proxy()])
  })

  it('pays through ERC20FeeProxy with the given reference, then refuses the same index and a later one too early', async () => {
    const payer = chain.accounts[2]!
    const s = await schedule(payer)
    await send(payer, 'approve', proxy(), parseUnits('30.3', 18))
    const before = await chain.balanceOf(token, payer.address)
    const paid = await trigger(s, 1, '0x00000000000000a1')
    expect(paid).toMatchObject({ to: PAYEE, token, amount: parseUnits('10', 18), feeAddress: FEE })
    expect(paid.feeAmount).toBe(parseUnits('0.1', 18))
    expect(before - (await chain.balanceOf(token, payer.address))).toBe(parseUnits('10.1', 18))
    expect(await chain.balanceOf(token, proxy())).toBe(0n)
    const logs = await chain.publicClient.getLogs({
      address: chain.contracts.ERC20FeeProxy,
      blockHash: (await chain.publicClient.getTransactionReceipt({ hash: paid.txHash })).blockHash,
    })
    expect(logs[0]!.topics[1]).toBe(keccak256('0x00000000000000a1'))
    console.log(`triggerRecurringPayment index 1 gas: ${paid.gasUsed}`)
    // strictOrder is checked before AlreadyPaid, as in Request Network's proxy.
    expect(await revertOf(s, 1)).toBe('ERC20RecurringPaymentProxy__PaymentOutOfOrder')
    expect(await revertOf(s, 3)).toBe('ERC20RecurringPaymentProxy__PaymentOutOfOrder')
    expect(await revertOf(s, 2)).toBe('ERC20RecurringPaymentProxy__NotDueYet')
    const second = await relayer.trigger({
      permit: s.values,
      signature: s.signature,
      index: 2,
      paymentReference: '0x00000000000000a2',
      dueAt: new Date((s.values.firstPayment + DAY) * 1000),
    })
    expect(
      Number((await chain.publicClient.getBlock({ blockNumber: BigInt(second.blockNumber) })).timestamp),
    ).toBeGreaterThanOrEqual(s.values.firstPayment + DAY)
    console.log(`triggerRecurringPayment index 2 gas: ${second.gasUsed}`)
  })

  it('checks signature, deadline, bounds and already-paid in that order', async () => {
    const payer = chain.accounts[3]!
    const stranger = chain.accounts[4]!
    const forged = await schedule(payer, {}, stranger)
    expect(await revertOf(forged, 1)).toBe('ERC20RecurringPaymentProxy__BadSignature')
    const expiredAndForged = await schedule(payer, { deadline: (await chainNow()) - 1 }, stranger)
    expect(await revertOf(expiredAndForged, 1)).toBe('ERC20RecurringPaymentProxy__BadSignature')
    const expired = await schedule(payer, { deadline: (await chainNow()) - 1 })
    expect(await revertOf(expired, 1)).toBe('ERC20RecurringPaymentProxy__SignatureExpired')
    const loose = await schedule(payer, { strictOrder: false, firstPayment: (await chainNow()) - 10 * DAY })
    expect(await revertOf(loose, 4)).toBe('ERC20RecurringPaymentProxy__IndexOutOfBounds')
    expect(await revertOf(loose, 0)).toBe('ERC20RecurringPaymentProxy__IndexOutOfBounds')
    await send(payer, 'approve', proxy(), parseUnits('100', 18))
    await trigger(loose, 3, '0x00000000000000b3')
    expect(await revertOf(loose, 3)).toBe('ERC20RecurringPaymentProxy__AlreadyPaid')
    expect(await revertOf(loose, 1)).toBeUndefined()
  })

  it('lets only the relayer trigger', async () => {
    const payer = chain.accounts[5]!
    const s = await schedule(payer)
    expect(await revertOf(s, 1, payer.address)).toBe('AccessControlUnauthorizedAccount')
  })

  it('reports a short balance or allowance as a reason before sending anything', async () => {
    const payer = chain.accounts[6]!
    const s = await schedule(payer)
    const failure = (p: Promise<unknown>) =>
      p.then(
        () => null,
        (e: RelayFailure) => e,
      )
    const noAllowance = await failure(trigger(s, 1, '0x00000000000000c1'))
    expect(noAllowance).toBeInstanceOf(RelayFailure)
    expect(noAllowance).toMatchObject({
      reason: 'Insufficient token allowance',
      subStatus: 'insufficient_allowance',
    })
    await send(payer, 'approve', proxy(), parseUnits('1000', 18))
    const balance = await chain.balanceOf(token, payer.address)
    await send(payer, 'transfer', chain.accounts[7]!.address, balance - parseUnits('1', 18))
    const noFunds = await failure(trigger(s, 1, '0x00000000000000c1'))
    expect(noFunds).toMatchObject({ reason: 'Insufficient token balance', subStatus: 'insufficient_funds' })
    await chain.fund(token, payer.address, parseUnits('100', 18))
    expect((await trigger(s, 1, '0x00000000000000c1')).amount).toBe(parseUnits('10', 18))
  })

  it('sends concurrent triggers one after another so the relayer nonce never races', async () => {
    const payer = chain.accounts[8]!
    await send(payer, 'approve', proxy(), parseUnits('1000', 18))
    const schedules = await Promise.all([schedule(payer), schedule(payer), schedule(payer), schedule(payer)])
    const results = await Promise.all(schedules.map((s, i) => trigger(s, 1, `0x00000000000000d${i}` as Hex)))
    expect(new Set(results.map((r) => r.txHash)).size).toBe(4)
  })
})
