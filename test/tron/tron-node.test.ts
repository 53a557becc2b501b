// The sandbox's Tron full node driven by TronWeb (npm `tronweb`), unmodified, as a Tron integrator drives TronGrid:
// accounts and resources, TRC-20 calls built by the node (TronWeb re-checks their protobuf bytes), signed locally,
// broadcast, executed as their signer, read back; refusals as TronGrid answers them.
import { TronWeb } from 'tronweb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newApiKey, startTransports, type Transports } from '../support/clients.ts'

let t: Transports
let tron: {
  fullHost: string
  tokens: Record<string, string>
  contracts: Record<string, string>
  accounts: { address: string; privateKey: string }[]
}
beforeAll(async () => {
  t = await startTransports(newApiKey, { networks: ['sepolia', 'tron'] })
  const res = await fetch(`${t.server.url}/__sandbox/chain`)
  const info = await res.json()
  tron = info.chains.find((c: { network: string }) => c.network === 'tron').tron
})
afterAll(async () => t?.close())

const tronWebOf = (privateKey: string) => new TronWeb({ fullHost: tron.fullHost, privateKey })

describe('the Tron full node under TronWeb', () => {
  it('GET /__sandbox/chain lists the Tron network: fullHost, T-form tokens, funded accounts with keys', () => {
    expect(tron.fullHost).toBe(`${t.server.url}/tron`)
    expect(tron.tokens['USDT-tron']).toBe('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')
    expect(tron.tokens['USDC-tron']).toBe('TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8')
    expect(tron.contracts.ERC20FeeProxy).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/)
    expect(tron.accounts).toHaveLength(10)
    expect(TronWeb.address.fromPrivateKey(tron.accounts[0]!.privateKey)).toBe(tron.accounts[0]!.address)
  })

  it('reads TRX and resources, sends USDT with a signed broadcast, and reads the transaction back', async () => {
    const [payer, payee] = [tron.accounts[1]!, tron.accounts[2]!]
    const tw = tronWebOf(payer.privateKey)
    const trxBefore = await tw.trx.getBalance(payer.address)
    expect(trxBefore).toBe(10_000 * 1e6)
    const resources = await tw.trx.getAccountResources(payer.address)
    expect(resources.freeNetLimit).toBe(600)
    const usdt = await tw.contract().at(tron.tokens['USDT-tron']!)
    const before = BigInt(await usdt.balanceOf(payee.address).call())
    const estimate = await tw.transactionBuilder.estimateEnergy(
      tron.tokens['USDT-tron']!,
      'transfer(address,uint256)',
      {},
      [
        { type: 'address', value: payee.address },
        { type: 'uint256', value: 1_500_000 },
      ],
      payer.address,
    )
    expect(estimate.energy_required).toBeGreaterThan(10_000)
    const built = await tw.transactionBuilder.triggerSmartContract(
      tron.tokens['USDT-tron']!,
      'transfer(address,uint256)',
      { feeLimit: 100_000_000 },
      [
        { type: 'address', value: payee.address },
        { type: 'uint256', value: 1_500_000 },
      ],
      payer.address,
    )
    const signed = await tw.trx.sign(built.transaction)
    const sent = await tw.trx.sendRawTransaction(signed)
    expect(sent).toMatchObject({ result: true, txid: built.transaction.txID })
    expect(BigInt(await usdt.balanceOf(payee.address).call())).toBe(before + 1_500_000n)
    const info = await tw.trx.getTransactionInfo(sent.txid)
    expect(info.receipt.result).toBe('SUCCESS')
    expect(info.receipt.energy_usage_total).toBe(estimate.energy_required)
    expect(info.receipt.energy_fee).toBe(estimate.energy_required * 100)
    const tx = await tw.trx.getTransaction(sent.txid)
    expect(tx.ret[0].contractRet).toBe('SUCCESS')
    // TRX burnt = energy fee (the bandwidth was free), exactly
    expect(await tw.trx.getBalance(payer.address)).toBe(trxBefore - info.fee)
    expect(info.fee).toBe(info.receipt.energy_fee)
  })

  it('refuses a broadcast signed by another key, a replay and a tampered raw_data', async () => {
    const [payer, thief] = [tron.accounts[3]!, tron.accounts[4]!]
    const tw = tronWebOf(payer.privateKey)
    const built = await tw.transactionBuilder.triggerSmartContract(
      tron.tokens['USDT-tron']!,
      'transfer(address,uint256)',
      { feeLimit: 100_000_000 },
      [
        { type: 'address', value: thief.address },
        { type: 'uint256', value: 1 },
      ],
      payer.address,
    )
    const forged = await tronWebOf(thief.privateKey).trx.sign(built.transaction, thief.privateKey, true, true)
    const refused = await tw.trx.sendRawTransaction(forged)
    expect(refused.code).toBe('SIGERROR')
    const signed = await tw.trx.sign(built.transaction)
    expect((await tw.trx.sendRawTransaction(signed)).result).toBe(true)
    const again = await tw.trx.sendRawTransaction(signed)
    expect(again.code).toBe('DUP_TRANSACTION_ERROR')
    const tampered = structuredClone(signed) as unknown as {
      raw_data: { contract: { parameter: { value: { data: string } } }[] }
    }
    const value = tampered.raw_data.contract[0]!.parameter.value
    value.data = value.data.replace(/01$/, '02')
    expect((await tw.trx.sendRawTransaction(tampered as never)).code).toBeTruthy()
  })

  it('keeps USDT from approving over a non-zero allowance (approve 0 first)', async () => {
    const owner = tron.accounts[5]!
    const tw = tronWebOf(owner.privateKey)
    const usdt = await tw.contract().at(tron.tokens['USDT-tron']!)
    const approve = async (value: number) => {
      const built = await tw.transactionBuilder.triggerSmartContract(
        tron.tokens['USDT-tron']!,
        'approve(address,uint256)',
        { feeLimit: 100_000_000 },
        [
          { type: 'address', value: tron.contracts.ERC20FeeProxy },
          { type: 'uint256', value },
        ],
        owner.address,
      )
      const sent = await tw.trx.sendRawTransaction(await tw.trx.sign(built.transaction))
      return (await tw.trx.getTransactionInfo(sent.txid)).receipt.result
    }
    expect(await approve(5)).toBe('SUCCESS')
    expect(await approve(7)).toBe('REVERT')
    expect(await approve(0)).toBe('SUCCESS')
    expect(await approve(7)).toBe('SUCCESS')
    expect(BigInt(await usdt.allowance(owner.address, tron.contracts.ERC20FeeProxy).call())).toBe(7n)
  })
})
