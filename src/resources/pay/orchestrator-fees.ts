// The payer-borne orchestrator fees a request captured at creation (requests/orchestrator-fees.ts;
// orchestrators/fees.mdx: "`payer` (added on top of what the payer pays)"), priced on the amount paid now: bps of
// it, capped at `usdCap` converted at the sandbox's rate. Each is a transfer to the config's EVM address (an ERC-20
// `transfer`, or a value transfer for a native currency) placed before the payment, as on secure payment links.
import { type Address, encodeFunctionData } from 'viem'
import { erc20Abi } from '../../chain/index.ts'
import { bigNumberJson } from '../../contract/amounts.ts'
import { checksum as getAddress } from '../../contract/checksum.ts'
import { divWad, toWad, wadToUnits } from '../../contract/decimal.ts'
import type { CurrencyFixture } from '../currencies/index.ts'
import type { RequestRecord } from '../requests/index.ts'
import type { Uses } from '../services.ts'
import type { ServiceTransaction } from './calldata.ts'

/** The transfers paying a request's payer-borne orchestrator fees on `amount` (base units of `currency`). */
export function payerOrchestratorFees(
  ctx: Uses<'conversion'>,
  record: RequestRecord,
  currency: CurrencyFixture,
  amount: bigint,
): { transactions: ServiceTransaction[]; total: bigint } {
  const transactions: ServiceTransaction[] = []
  let total = 0n
  for (const fee of record.orchestratorFees) {
    // a Tron-only config takes nothing on an EVM chain; recipient-borne fees are not deducted from a plain request
    if (fee.feeBearer !== 'payer' || !fee.evmRecipientAddress) continue
    let units = (amount * BigInt(fee.bps)) / 10_000n
    if (fee.usdCap !== null) {
      const rate = ctx.conversion.rate(ctx.world, currency.id, 'USD')
      const cap = wadToUnits(
        rate === null ? toWad(fee.usdCap) : divWad(toWad(fee.usdCap), rate),
        currency.decimals,
      )
      if (units > cap) units = cap
    }
    if (units === 0n) continue
    total += units
    const to = getAddress(fee.evmRecipientAddress)
    transactions.push(
      currency.type === 'ETH'
        ? { to, data: '0x', value: bigNumberJson(units) }
        : {
            to: getAddress(currency.address!) as Address,
            data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, units] }),
            value: bigNumberJson(0n),
          },
    )
  }
  return { transactions, total }
}
