// Whether a wallet can run a TRC-20 payment's Tron steps: its allowance decides the approvals (USDT on Tron refuses to
// approve from a non-zero allowance, so a short allowance is reset to 0 before the max approval: the service's
// "max-allowance approval pattern"), its token balance the funds, and its TRX, energy and bandwidth, read from the
// sandbox's Tron node, what the steps burn.
import { encodeFunctionData, type Hex, maxUint256 } from 'viem'
import { erc20Abi, type LiveChain } from '../chain/index.ts'
import { fromBaseUnits } from '../contract/amounts.ts'
import { toEvmAddress } from './address.ts'
import { BANDWIDTH_PRICE_SUN, ENERGY_PRICE_SUN } from './node/node.ts'
import { type TronStep, tronStep } from './steps.ts'

/** energy budgeted for a step the node cannot simulate yet (the payment before its approval), measured, rounded up */
const PAYMENT_ENERGY = 60_000n

const APPROVE = 'approve(address,uint256)'

/** What the readiness reads: the payment's token and proxy, the steps before and the payment, the wallet. */
export interface TronPaymentPlan {
  /** the `tron` chain (null without it: the steps are answered unchecked) */
  chain: Pick<LiveChain, 'balanceOf' | 'allowance' | 'tron'> | null
  /** the payer's EVM address, null when the caller named none */
  wallet: Hex | null
  token: Hex
  proxy: Hex
  /** what the proxy pulls (amount + fee): an allowance of at least this needs no approval */
  pulled: bigint
  /** the token transfers sent before the payment (orchestrator fees), their total in `sent` */
  before: TronStep[]
  sent: bigint
  payment: TronStep
}

/** The approvals the wallet needs and what the steps cost it. */
export interface TronReadiness {
  approvals: TronStep[]
  hasEnoughBalance: boolean
  hasEnoughGas: boolean
  /** TRX of the wallet (null without a wallet) */
  nativeBalance: string | null
  freeBandwidth: number | null
  energy: bigint
  bandwidth: number
  /** sun the steps burn: energy and the bandwidth beyond the free allowance */
  feeSun: bigint
}

/** Reads the wallet's allowance, balance and resources and prices the steps (approvals, `before`, payment). */
export async function tronReadiness(plan: TronPaymentPlan): Promise<TronReadiness> {
  const { chain, wallet, token, proxy, payment } = plan
  const approve = (value: bigint) =>
    tronStep(
      token,
      APPROVE,
      encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [proxy, value] }),
    )
  const node = chain?.tron ?? null
  let approvals: TronStep[] = [approve(maxUint256)]
  let hasEnoughBalance = true
  let hasEnoughGas = true
  let nativeBalance: string | null = null
  let freeBandwidth: number | null = null
  let energy = 0n
  let bandwidth = 0
  let feeSun = 0n
  if (chain && node && wallet) {
    const [balance, allowance, resources] = await Promise.all([
      chain.balanceOf(token, wallet),
      chain.allowance(token, wallet, proxy),
      node.resources(wallet),
    ])
    if (allowance >= plan.pulled) approvals = []
    else if (allowance > 0n) approvals = [approve(0n), approve(maxUint256)]
    hasEnoughBalance = balance >= plan.pulled + plan.sent
    const steps = [...approvals, ...plan.before, payment]
    // a step the chain cannot run yet (after an approval still to come) counts the fixed budget
    const energies = await Promise.all(
      steps.map((s) =>
        s === payment && approvals.length
          ? Promise.resolve(PAYMENT_ENERGY)
          : node.estimateEnergy(wallet, toEvmAddress(s.to), s.data as Hex),
      ),
    )
    energy = energies.reduce((a, b) => a + (b || PAYMENT_ENERGY), 0n)
    let free = resources.freeBandwidth
    for (const s of steps) {
      const bytes = node.bandwidthOf(wallet, toEvmAddress(s.to), s.data as Hex)
      bandwidth += bytes
      if (bytes <= free) free -= bytes
      else feeSun += BigInt(bytes) * BANDWIDTH_PRICE_SUN
    }
    feeSun += energy * ENERGY_PRICE_SUN
    hasEnoughGas = resources.balanceSun >= feeSun
    nativeBalance = fromBaseUnits(resources.balanceSun, 6)
    freeBandwidth = resources.freeBandwidth
  }
  return {
    approvals,
    hasEnoughBalance,
    hasEnoughGas,
    nativeBalance,
    freeBandwidth,
    energy,
    bandwidth,
    feeSun,
  }
}
