import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { toTronAddress } from '../../src/tron/index.ts'
import { newApiKey } from '../support/clients.ts'
import { useTronSandbox } from './setup.ts'
import { freshTronAddress, signStep } from './steps.ts'

const sb = useTronSandbox()

describe('the Tron full node under TronWeb: funds and resources', () => {
  it('mints USDT-tron to a T-address with the faucet, read back through TronWeb', async () => {
    const holder = freshTronAddress()
    const res = await fetch(`${sb.t.server.url}/__sandbox/faucet`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': newApiKey() },
      body: JSON.stringify({ address: holder, currency: 'USDT-tron', amount: '5' }),
    })
    expect(res.ok).toBe(true)
    expect(await res.json()).toMatchObject({ address: holder, balance: '5' })
    const usdt = await sb
      .tronWebOf(sb.tron.accounts[0]!.privateKey)
      .contract()
      .at(sb.tron.tokens['USDT-tron']!)
    expect(BigInt(await usdt.balanceOf(holder).call())).toBe(5_000_000n)
  })

  it('readiness means something: a wallet without TRX is told so, and its unsponsored call runs out of energy', async () => {
    const key = generatePrivateKey()
    const wallet = toTronAddress(privateKeyToAccount(key).address)
    const apiKey = newApiKey()
    const faucet = await fetch(`${sb.t.server.url}/__sandbox/faucet`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({ address: wallet, currency: 'USDT-tron', amount: '20' }),
    })
    expect(faucet.ok).toBe(true)
    const headers = { 'content-type': 'application/json', 'x-api-key': apiKey }
    const created = await (
      await fetch(`${sb.t.server.url}/v2/request`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          payee: freshTronAddress(),
          amount: '10',
          invoiceCurrency: 'USDT-tron',
          paymentCurrency: 'USDT-tron',
        }),
      })
    ).json()
    const pay = await (
      await fetch(`${sb.t.server.url}/v2/request/${created.requestId}/pay?wallet=${wallet}`, { headers })
    ).json()
    expect(pay.metadata).toMatchObject({ hasEnoughBalance: true, hasEnoughGas: false, nativeBalance: '0' })
    expect(pay.metadata.energyRequired).toBeGreaterThan(0)
    expect(Number(pay.metadata.estimatedNetworkFee)).toBeGreaterThan(0)
    // the free bandwidth carries the transaction, but no TRX pays its energy
    const tw = sb.tronWebOf(key.slice(2))
    const step = pay.transactions[0]
    const sent = await tw.trx.sendRawTransaction((await signStep(tw, wallet, step)).signed)
    expect(sent.result).toBe(true)
    const info = await tw.trx.getTransactionInfo(sent.txid)
    expect(info.receipt.result).toBe('OUT_OF_ENERGY')
    expect(info.receipt.net_usage).toBeGreaterThan(0)
  })

  it('keeps USDT from approving over a non-zero allowance (approve 0 first)', async () => {
    const owner = sb.tron.accounts[5]!
    const tw = sb.tronWebOf(owner.privateKey)
    const usdt = await tw.contract().at(sb.tron.tokens['USDT-tron']!)
    const approve = async (value: number) => {
      const built = await tw.transactionBuilder.triggerSmartContract(
        sb.tron.tokens['USDT-tron']!,
        'approve(address,uint256)',
        { feeLimit: 100_000_000 },
        [
          { type: 'address', value: sb.tron.contracts.ERC20FeeProxy },
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
    expect(BigInt(await usdt.allowance(owner.address, sb.tron.contracts.ERC20FeeProxy).call())).toBe(7n)
  })
})
