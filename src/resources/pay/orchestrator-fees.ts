// The payer-borne orchestrator fees a request captured at creation (requests/orchestrator-fees.ts;
// orchestrators/fees.mdx: "`payer` (added on top of what the payer pays)"), priced on the amount paid now, in the
// currency the request counts in (its invoice currency): bps of it, capped at `usdCap` converted at the sandbox's
// rate. Each reaches the config's address for the chain paid on (EVM or Tron: a config without that chain's address
// takes nothing there) in a transfer placed before the payment, as on secure payment links: an ERC-20 `transfer` or a
// value transfer (native currency) on EVM, a TRC-20 `transfer` step on Tron, a fee leg of a cross-chain intent.
// A request invoiced in fiat pays the fee converted like the payment (the caller converts the units).
import { type Address, encodeFunctionData } from 'viem'
import { erc20Abi } from '../../chain/index.ts'
import { bigNumberJson } from '../../contract/amounts.ts'
import { checksum as getAddress } from '../../contract/checksum.ts'
import { divWad, toWad, wadToUnits } from '../../contract/decimal.ts'
import type { CurrencyFixture } from '../currencies/index.ts'
import type { RequestRecord } from '../requests/index.ts'
import type { Uses } from '../services.ts'
import type { ServiceTransaction } from './calldata.ts'

/** One payer-borne fee of a payment: its address (`0x…` or `T…`) and its units, in the currency it was priced in. */
export interface PayerFee {
  address: string
  units: bigint
}

/**
 * The payer-borne orchestrator fees of `record` on `amount` (base units of `currency`, the currency the amount counts
 * in), paid on an EVM chain or on Tron.
 */
export function payerFeeUnits(
  ctx: Uses<'conversion'>,
  record: RequestRecord,
  currency: CurrencyFixture,
  amount: bigint,
  chain: 'evm' | 'tron',
): PayerFee[] {
  const fees: PayerFee[] = []
  for (const fee of record.orchestratorFees) {
    // recipient-borne fees are not deducted from a plain request (its amount is the invoice's)
    if (fee.feeBearer !== 'payer') continue
    const address = chain === 'tron' ? fee.tronRecipientAddress : fee.evmRecipientAddress
    if (!address) continue
    let units = (amount * BigInt(fee.bps)) / 10_000n
    if (fee.usdCap !== null) {
      const rate = ctx.conversion.rate(ctx.world, currency.id, 'USD')
      const cap = wadToUnits(
        rate === null ? toWad(fee.usdCap) : divWad(toWad(fee.usdCap), rate),
        currency.decimals,
      )
      if (units > cap) units = cap
    }
    if (units > 0n) fees.push({ address, units })
  }
  return fees
}

/** The EVM transfers paying `fees` (base units of `currency`, the payment currency). */
export function evmFeeTransfers(fees: PayerFee[], currency: CurrencyFixture): ServiceTransaction[] {
  return fees.map(({ address, units }) => {
    const to = getAddress(address)
    return currency.type === 'ETH'
      ? { to, data: '0x', value: bigNumberJson(units) }
      : {
          to: getAddress(currency.address!) as Address,
          data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, units] }),
          value: bigNumberJson(0n),
        }
  })
}

/** The transfers paying a request's payer-borne orchestrator fees on `amount` (base units of `currency`). */
export function payerOrchestratorFees(
  ctx: Uses<'conversion'>,
  record: RequestRecord,
  currency: CurrencyFixture,
  amount: bigint,
): { transactions: ServiceTransaction[]; total: bigint } {
  const fees = payerFeeUnits(ctx, record, currency, amount, 'evm')
  return { transactions: evmFeeTransfers(fees, currency), total: fees.reduce((s, f) => s + f.units, 0n) }
}
