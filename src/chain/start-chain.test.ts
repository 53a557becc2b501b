import { readFileSync } from 'node:fs'
import {
  type Address,
  createWalletClient,
  encodeFunctionData,
  getAddress,
  type Hex,
  http,
  keccak256,
  parseAbi,
  parseEventLogs,
  parseSignature,
  zeroAddress,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawnAnvil } from './anvil.ts'
import { artifacts } from './artifacts.ts'
import { COMMERCE_ESCROW_ADDRESS } from './commerce-escrow.ts'
import { deployAt, installAt, PERMIT2_ADDRESS } from './install-contracts.ts'
import { safeContracts } from './safe.ts'
import { type StartedChain, startChain } from './start-chain.ts'
import type { ChainCurrency, SandboxAccount } from './types.ts'

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../fixtures/${name}`, import.meta.url), 'utf8'))
const currencies = fixture('currencies.json') as ChainCurrency[]
const sepolia = fixture('networks.json').sepolia.contracts as Record<string, Address>
const erc20 = parseAbi([
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
  'function approve(address spender, uint256 amount) returns (bool)',
  'function nonces(address owner) view returns (uint256)',
  'function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)',
])
const sepoliaTokens = currencies.filter((c) => c.network === 'sepolia' && c.type === 'ERC20')
const PAYEE = getAddress('0x000000000000000000000000000000000000beef')
const FEE = getAddress('0x000000000000000000000000000000000000fee5')
const REF: Hex = '0x0123456789abcdef'

describe('startChain (sepolia)', () => {
  let chain: StartedChain
  let startMs = 0
  const walletOf = (account: SandboxAccount) =>
    createWalletClient({
      account: privateKeyToAccount(account.privateKey),
      chain: chain.publicClient.chain,
      transport: http(chain.rpcUrl),
    })
  const send = async (account: SandboxAccount, to: Address, data: Hex, value = 0n) => {
    const hash = await walletOf(account).sendTransaction({ to, data, value, chain: null })
    return chain.publicClient.waitForTransactionReceipt({ hash })
  }

  beforeAll(async () => {
    const started = performance.now()
    chain = await startChain({ currencies, contracts: sepolia })
    startMs = performance.now() - started
  })
  afterAll(async () => {
    await chain?.stop()
  })

  it('runs on chain id 11155111 with contracts and tokens at their real addresses', async () => {
    console.log(`startChain took ${startMs.toFixed(0)} ms`)
    expect(chain.chainId).toBe(11155111)
    expect(await chain.publicClient.getChainId()).toBe(11155111)
    expect(chain.contracts).toEqual({
      ERC20FeeProxy: sepolia.ERC20FeeProxy,
      EthereumFeeProxy: sepolia.EthereumFeeProxy,
      BatchConversionPayments: sepolia.BatchConversionPayments,
      Permit2: PERMIT2_ADDRESS,
      ERC20RecurringPaymentProxy: sepolia.ERC20RecurringPaymentProxy,
      CommerceEscrow: COMMERCE_ESCROW_ADDRESS,
      // the Safe v1.4.1 contracts at their canonical addresses (safe-deployments)
      ...Object.fromEntries(Object.entries(safeContracts()).map(([n, c]) => [n, getAddress(c.address)])),
    })
    for (const c of Object.values(safeContracts()))
      expect(keccak256((await chain.publicClient.getCode({ address: c.address }))!)).toBe(c.codeHash)
    expect(Object.keys(chain.tokens).sort()).toEqual(sepoliaTokens.map((c) => c.id).sort())
    expect(chain.tokens['USDC-sepolia']).toBe(chain.tokens['fUSDC-sepolia'])
    for (const address of [...Object.values(chain.contracts), ...Object.values(chain.tokens)]) {
      expect((await chain.publicClient.getCode({ address }))?.length ?? 0).toBeGreaterThan(2)
    }
    // EthereumFeeProxy's constructor-written ReentrancyGuard slot came along with its code.
    const slot0 = await chain.publicClient.getStorageAt({ address: sepolia.EthereumFeeProxy!, slot: '0x0' })
    expect(BigInt(slot0 ?? '0x0')).toBe(1n)
  })

  it('serves name/symbol/decimals from immutables at the real token addresses', async () => {
    const read = (address: Address, fn: 'name' | 'symbol' | 'decimals') =>
      chain.publicClient.readContract({ address, abi: erc20, functionName: fn })
    const meta = async (a: Address) => [
      await read(a, 'name'),
      await read(a, 'symbol'),
      await read(a, 'decimals'),
    ]
    expect(await meta(getAddress('0x1c7d4b196cb0c7b01d743fbc6116a902379c7238'))).toEqual(['USDC', 'USDC', 6])
    for (const c of sepoliaTokens.filter((t) => !t.id.startsWith('fUSDC'))) {
      expect(await meta(chain.tokens[c.id]!)).toEqual([c.name, c.symbol, c.decimals])
    }
  })

  it('funds every default account with 1,000,000 of every token and the roles with ETH', async () => {
    expect(chain.accounts).toHaveLength(10)
    expect(chain.accounts[0]!.address).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')
    expect(privateKeyToAccount(chain.accounts[9]!.privateKey).address).toBe(chain.accounts[9]!.address)
    for (const c of sepoliaTokens) {
      const expected = 1_000_000n * 10n ** BigInt(c.decimals)
      expect(await chain.balanceOf(chain.tokens[c.id]!, chain.accounts[0]!.address)).toBe(expected)
      expect(await chain.balanceOf(chain.tokens[c.id]!, chain.accounts[9]!.address)).toBe(expected)
    }
    for (const role of Object.values(chain.roles)) {
      expect(await chain.balanceOf('native', role.address)).toBeGreaterThan(0n)
      expect(chain.accounts.map((a) => a.address)).not.toContain(role.address)
    }
  })

  it('accepts an EIP-2612 permit for USDC (version "2") and rejects permit on FAU', async () => {
    const [owner, submitter] = [chain.accounts[1]!, chain.accounts[2]!]
    const usdc = chain.tokens['USDC-sepolia']!
    const spender = chain.contracts.ERC20FeeProxy!
    const value = 123_456_789n
    const deadline = BigInt(Math.floor(Date.now() / 1000) + 3600)
    const nonce = await chain.publicClient.readContract({
      address: usdc,
      abi: erc20,
      functionName: 'nonces',
      args: [owner.address],
    })
    const signature = await privateKeyToAccount(owner.privateKey).signTypedData({
      domain: { name: 'USDC', version: '2', chainId: chain.chainId, verifyingContract: usdc },
      types: {
        Permit: [
          { name: 'owner', type: 'address' },
          { name: 'spender', type: 'address' },
          { name: 'value', type: 'uint256' },
          { name: 'nonce', type: 'uint256' },
          { name: 'deadline', type: 'uint256' },
        ],
      },
      primaryType: 'Permit',
      message: { owner: owner.address, spender, value, nonce, deadline },
    })
    const { r, s, v } = parseSignature(signature)
    const args = [owner.address, spender, value, deadline, Number(v), r, s] as const
    const receipt = await send(
      submitter,
      usdc,
      encodeFunctionData({ abi: erc20, functionName: 'permit', args }),
    )
    expect(receipt.status).toBe('success')
    expect(await chain.allowance(usdc, owner.address, spender)).toBe(value)
    // Replaying the same signature fails (nonce consumed); FAU has no permit at all.
    const abi = artifacts.SandboxToken.abi
    const simulate = (address: Address, functionName = 'permit', fnArgs: readonly unknown[] = args) =>
      chain.publicClient.simulateContract({
        account: submitter.address,
        address,
        abi,
        functionName,
        args: fnArgs,
      })
    await expect(simulate(usdc)).rejects.toThrow(/SandboxTokenPermitBadSigner/)
    const fau = chain.tokens['FAU-sepolia']!
    await expect(simulate(fau)).rejects.toThrow(/SandboxTokenPermitDisabled/)
    await expect(simulate(fau, 'nonces', [owner.address])).rejects.toThrow(/SandboxTokenPermitDisabled/)
  })

  it('pays an ERC-20 request through ERC20FeeProxy and emits TransferWithReferenceAndFee', async () => {
    const payer = chain.accounts[3]!
    const token = chain.tokens['FAU-sepolia']!
    const proxy = chain.contracts.ERC20FeeProxy!
    const [amount, fee] = [100n * 10n ** 18n, 2n * 10n ** 18n]
    await send(
      payer,
      token,
      encodeFunctionData({ abi: erc20, functionName: 'approve', args: [proxy, amount + fee] }),
    )
    const payArgs = [token, PAYEE, amount, REF, fee, FEE] as const
    const data = encodeFunctionData({
      abi: artifacts.ERC20FeeProxy.abi,
      functionName: 'transferFromWithReferenceAndFee',
      args: payArgs,
    })
    expect(data.slice(0, 10)).toBe('0xc219a14d')
    const receipt = await send(payer, proxy, data)
    expect(receipt.status).toBe('success')
    const log = receipt.logs.find((l) => getAddress(l.address) === proxy)!
    expect(log.topics[0]?.slice(0, 10)).toBe('0x9f16cbcc')
    expect(log.topics[1]).toBe(keccak256(REF))
    const [event] = parseEventLogs({ abi: artifacts.ERC20FeeProxy.abi, logs: [log] }) as unknown as {
      args: { tokenAddress: Address; to: Address; amount: bigint; feeAmount: bigint; feeAddress: Address }
    }[]
    expect(event?.args).toMatchObject({
      tokenAddress: token,
      to: PAYEE,
      amount,
      feeAmount: fee,
      feeAddress: FEE,
    })
    expect(await chain.balanceOf(token, PAYEE)).toBe(amount)
    expect(await chain.balanceOf(token, FEE)).toBe(fee)
  })

  it('pays an ETH request through EthereumFeeProxy', async () => {
    const payer = chain.accounts[4]!
    const proxy = chain.contracts.EthereumFeeProxy!
    const payee = getAddress('0x00000000000000000000000000000000000e7e00')
    const [amount, fee] = [10n ** 18n, 10n ** 16n]
    const data = encodeFunctionData({
      abi: artifacts.EthereumFeeProxy.abi,
      functionName: 'transferWithReferenceAndFee',
      args: [payee, REF, fee, FEE],
    })
    const receipt = await send(payer, proxy, data, amount + fee)
    expect(receipt.status).toBe('success')
    expect(receipt.logs[0]?.topics[0]?.slice(0, 10)).toBe('0xa1c241e3')
    expect(receipt.logs[0]?.topics[1]).toBe(keccak256(REF))
    expect(await chain.balanceOf('native', payee)).toBe(amount)
  })

  it('fund() mints tokens and adds ETH', async () => {
    const to = getAddress('0x0000000000000000000000000000000000f00d01')
    const usdc = chain.tokens['USDC-sepolia']!
    const hash = await chain.fund(usdc, to, 5_000_000n)
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
    await chain.fund(usdc, to, 1n)
    expect(await chain.balanceOf(usdc, to)).toBe(5_000_001n)
    expect(await chain.fund('native', to, 7n)).toBeNull()
    await chain.fund('native', to, 3n)
    expect(await chain.balanceOf('native', to)).toBe(10n)
    await expect(chain.fund(PAYEE, to, 1n)).rejects.toThrow(/not a token installed/)
  })

  it('installAt and deployAt carry constructor storage to a chosen address', async () => {
    const mock = artifacts.AggregatorMock
    const abi = parseAbi([
      'function latestAnswer() view returns (int256)',
      'function decimals() view returns (uint8)',
    ])
    const at = (address: Address) =>
      chain.publicClient.readContract({ address, abi, functionName: 'latestAnswer' })
    const installed = await installAt(
      chain,
      mock,
      [123n, 8, 60],
      '0x00000000000000000000000000000000000A6601',
    )
    expect(await at(installed)).toBe(123n)
    const target = getAddress('0x00000000000000000000000000000000000a6602')
    const deployed = await deployAt(chain, mock, [456n, 8, 60], target)
    expect(deployed.address).toBe(target)
    expect(await at(deployed.address)).toBe(456n)
    expect(await at(deployed.deployedAt)).toBe(456n)
  })

  it('stop() ends the anvil process', async () => {
    const pid = chain.pid!
    expect(() => process.kill(pid, 0)).not.toThrow()
    await chain.stop()
    expect(() => process.kill(pid, 0)).toThrow()
    await chain.stop() // idempotent
  })
})

describe('startChain on an existing anvil (rpcUrl)', () => {
  it('installs onto it, and stop() leaves it running', async () => {
    const anvil = await spawnAnvil({ chainId: 11155111 })
    try {
      const chain = await startChain({ rpcUrl: anvil.rpcUrl, currencies, contracts: sepolia, fundTokens: 5 })
      expect(chain.pid).toBeNull()
      expect(await chain.balanceOf(chain.tokens['fUSDT-sepolia']!, chain.accounts[5]!.address)).toBe(
        5_000_000n,
      )
      await chain.stop()
      expect(await chain.publicClient.getChainId()).toBe(11155111)
      expect(await chain.balanceOf('native', zeroAddress)).toBeGreaterThanOrEqual(0n)
    } finally {
      await anvil.stop()
    }
    expect(() => process.kill(anvil.pid, 0)).toThrow()
  })
})
