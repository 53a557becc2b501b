import { TronWeb } from 'tronweb'
import { describe, expect, it, vi } from 'vitest'
import { newApiKey } from '../support/clients.ts'
import { useTronSandbox } from './setup.ts'

const sb = useTronSandbox()

describe('the Tron full node under TronWeb', () => {
  it('GET /__sandbox/chain lists the Tron network: fullHost, T-form tokens, funded accounts with keys', () => {
    expect(sb.tron.fullHost).toBe(`${sb.t.server.url}/tron`)
    expect(sb.tron.tokens['USDT-tron']).toBe('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')
    expect(sb.tron.tokens['USDC-tron']).toBe('TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8')
    expect(sb.tron.contracts.ERC20FeeProxy).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/)
    expect(sb.tron.accounts).toHaveLength(10)
    expect(TronWeb.address.fromPrivateKey(sb.tron.accounts[0]!.privateKey)).toBe(sb.tron.accounts[0]!.address)
  })

  it('GET /v2/currencies and the served OpenAPI show the Tron network', async () => {
    const res = await fetch(`${sb.t.server.url}/v2/currencies?network=tron`, {
      headers: { 'x-api-key': newApiKey() },
    })
    expect(res.status).toBe(200)
    const tokens = (await res.json()) as { id: string; address: string; type: string; chainId: number }[]
    expect(tokens.map((c) => c.id).sort()).toEqual(['USDC-tron', 'USDT-tron'])
    for (const c of tokens)
      expect(c).toMatchObject({ type: 'TRC20', chainId: 728126428, address: expect.stringMatching(/^T/) })
    const doc = await (await fetch(`${sb.t.server.url}/openapi.json`)).json()
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/tron/wallet/{method}', '/tron/walletsolidity/{method}']),
    )
    expect(Object.keys(doc.paths['/v2/secure-payments/{token}/tron/broadcast'].post.responses)).toContain(
      '200',
    )
    expect(JSON.stringify(doc)).toContain('"TRC20"')
  })

  it('reads TRX and resources, sends USDT with a signed broadcast, and reads the transaction back', async () => {
    const [payer, payee] = [sb.tron.accounts[1]!, sb.tron.accounts[2]!]
    const tw = sb.tronWebOf(payer.privateKey)
    const trxBefore = await tw.trx.getBalance(payer.address)
    expect(trxBefore).toBe(10_000 * 1e6)
    const resources = await tw.trx.getAccountResources(payer.address)
    expect(resources.freeNetLimit).toBe(600)
    const usdt = await tw.contract().at(sb.tron.tokens['USDT-tron']!)
    const before = BigInt(await usdt.balanceOf(payee.address).call())
    const estimate = await tw.transactionBuilder.estimateEnergy(
      sb.tron.tokens['USDT-tron']!,
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
      sb.tron.tokens['USDT-tron']!,
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
    // its block lists it, read from the node's index by block, not from a pass over every transaction it kept
    const maps = vi.spyOn(Map.prototype, 'values')
    let block: { transactions?: { txID: string }[] }
    let read: unknown[]
    try {
      block = (
        await sb.t.sandbox.chains.get('tron')!.tron!.call('wallet/getblockbynum', { num: info.blockNumber })
      ).body as typeof block
    } finally {
      read = [...maps.mock.contexts]
      maps.mockRestore()
    }
    expect(block.transactions?.map((x) => x.txID)).toEqual([sent.txid])
    const readWhole = read.filter((m) => {
      const first = (m as Map<unknown, unknown>).values().next().value
      return typeof first === 'object' && first !== null && 'txID' in first && 'evmHash' in first
    })
    expect(readWhole).toEqual([])
    // TRX burnt = energy fee (the bandwidth was free), exactly
    expect(await tw.trx.getBalance(payer.address)).toBe(trxBefore - info.fee)
    expect(info.fee).toBe(info.receipt.energy_fee)
  })

  it('refuses a broadcast signed by another key, a replay and a tampered raw_data', async () => {
    const [payer, thief] = [sb.tron.accounts[3]!, sb.tron.accounts[4]!]
    const tw = sb.tronWebOf(payer.privateKey)
    const built = await tw.transactionBuilder.triggerSmartContract(
      sb.tron.tokens['USDT-tron']!,
      'transfer(address,uint256)',
      { feeLimit: 100_000_000 },
      [
        { type: 'address', value: thief.address },
        { type: 'uint256', value: 1 },
      ],
      payer.address,
    )
    const forged = await sb
      .tronWebOf(thief.privateKey)
      .trx.sign(built.transaction, thief.privateKey, true, true)
    const refused = await tw.trx.sendRawTransaction(forged)
    expect(refused.code).toBe('SIGERROR')
    expect(Buffer.from(refused.message as string, 'hex').toString()).toBe(
      `Validate signature error: ${forged.signature![0]!.toLowerCase()} is signed by ${thief.address} but it is not contained of permission.`,
    )
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
})
