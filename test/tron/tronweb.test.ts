// The sandbox's Tron full node driven by TronWeb (npm `tronweb`), unmodified, as a Tron integrator drives TronGrid:
// accounts and resources, TRC-20 calls built by the node (TronWeb re-checks their protobuf bytes), signed locally,
// broadcast, executed as their signer, read back; refusals as TronGrid answers them.
import { createHash } from 'node:crypto'
import { TronWeb } from 'tronweb'
import type { Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount, sign } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { encodeRawData, encodeTransfer, encodeTrigger } from '../../src/chain/tron/protobuf.ts'
import { toEvmAddress, toTronAddress } from '../../src/contract/tron-address.ts'
import { securePaymentState } from '../../src/resources/secure-payments/index.ts'
import { describeTransports, newApiKey, startTransports, type Transports } from '../support/clients.ts'
import { waitFor } from '../support/wait.ts'
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts'

let t: Transports
let receiver: WebhookReceiver
let tron: {
  fullHost: string
  tokens: Record<string, string>
  contracts: Record<string, string>
  accounts: { address: string; privateKey: string }[]
}
beforeAll(async () => {
  ;[t, receiver] = await Promise.all([
    startTransports(newApiKey, { networks: ['sepolia', 'tron'] }),
    startReceiver(),
  ])
  const res = await fetch(`${t.server.url}/__sandbox/chain`)
  const info = await res.json()
  tron = info.chains.find((c: { network: string }) => c.network === 'tron').tron
})
afterAll(async () => {
  await t?.close()
  await receiver?.close()
})

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

  it('GET /v2/currencies and the served OpenAPI show the Tron network', async () => {
    const res = await fetch(`${t.server.url}/v2/currencies?network=tron`, {
      headers: { 'x-api-key': newApiKey() },
    })
    expect(res.status).toBe(200)
    const tokens = (await res.json()) as { id: string; address: string; type: string; chainId: number }[]
    expect(tokens.map((c) => c.id).sort()).toEqual(['USDC-tron', 'USDT-tron'])
    for (const c of tokens)
      expect(c).toMatchObject({ type: 'TRC20', chainId: 728126428, address: expect.stringMatching(/^T/) })
    const doc = await (await fetch(`${t.server.url}/openapi.json`)).json()
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/tron/wallet/{method}', '/tron/walletsolidity/{method}']),
    )
    expect(Object.keys(doc.paths['/v2/secure-payments/{token}/tron/broadcast'].post.responses)).toContain(
      '200',
    )
    expect(JSON.stringify(doc)).toContain('"TRC20"')
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
    // its block lists it, read from the node's index by block, not from a pass over every transaction it kept
    const maps = vi.spyOn(Map.prototype, 'values')
    let block: { transactions?: { txID: string }[] }
    let read: unknown[]
    try {
      block = (
        await t.sandbox.chains.get('tron')!.tron!.call('wallet/getblockbynum', { num: info.blockNumber })
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

  it('answers bad input as TronGrid does (200 with the refusal) or 4xx, never 500', async () => {
    const post = (path: string, body: string) =>
      fetch(`${tron.fullHost}/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      })
    const cases: [string, string, number][] = [
      ['wallet/getaccount', '{"address":"not-an-address"}', 200],
      ['wallet/triggersmartcontract', '{"owner_address":42,"contract_address":"T"}', 200],
      ['wallet/triggersmartcontract', '[1,2]', 400],
      ['wallet/broadcasttransaction', '{"raw_data_hex":"zz"}', 200],
      [
        'wallet/broadcasttransaction',
        '{"raw_data_hex":"0a02ffff","signature":["00"],"raw_data":{"contract":5}}',
        200,
      ],
      ['wallet/gettransactionbyid', '{"value":{"x":1}}', 200],
      ['wallet/getblockbynum', '{"num":-1}', 200],
      ['wallet/nosuchmethod', '{}', 404],
      ['wallet/getnowblock', '{not json', 400],
      ['wallet/getaccount', JSON.stringify({ address: 'x'.repeat(3_000_000) }), 413],
      [
        'wallet/triggerconstantcontract',
        JSON.stringify({
          owner_address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
          contract_address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
          function_selector: 'totalSupply()',
          call_value: '9'.repeat(90),
        }),
        200,
      ],
      [
        'wallet/triggersmartcontract',
        JSON.stringify({
          owner_address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
          contract_address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
          function_selector: 'totalSupply()',
          call_value: '9'.repeat(90),
          fee_limit: '9'.repeat(90),
        }),
        200,
      ],
      [
        'wallet/createtransaction',
        JSON.stringify({
          owner_address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
          to_address: 'TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8',
          amount: '9'.repeat(90),
        }),
        200,
      ],
      ['wallet/getblock', JSON.stringify({ id_or_num: 'f'.repeat(64) }), 200],
      ['wallet/estimateenergy', JSON.stringify({ owner_address: [], contract_address: {} }), 200],
    ]
    for (const [path, body, status] of cases) {
      const res = await post(path, body)
      expect(res.status, `${path} ${body}`).toBe(status)
    }
    const refused = await (await post('wallet/broadcasttransaction', '{"raw_data_hex":"zz"}')).json()
    expect(refused.code).toBe('OTHER_ERROR')
    const built = await (
      await post('wallet/triggersmartcontract', '{"owner_address":42,"contract_address":"T"}')
    ).json()
    expect(Buffer.from(built.result.message, 'hex').toString()).toBe('Invalid ownerAddress')
  })

  it('refuses signed broadcasts with a broken contract, a short address or negative int64 fields; TRX stays put', async () => {
    const owner = tron.accounts[5]!
    const ownerBytes = Buffer.from(`41${toEvmAddress(owner.address).slice(2)}`, 'hex')
    const head = await (await fetch(`${tron.fullHost}/wallet/getnowblock`, { method: 'POST' })).json()
    const id = Buffer.from(head.blockID as string, 'hex')
    const now = head.block_header.raw_data.timestamp as number
    const send = async (
      type: 'TriggerSmartContract' | 'TransferContract',
      value: Buffer,
      feeLimit?: number,
    ) => {
      const raw = encodeRawData({
        refBlockBytes: id.subarray(6, 8),
        refBlockHash: id.subarray(8, 16),
        expiration: now + 60_000,
        contract: { type, value },
        timestamp: now,
        ...(feeLimit === undefined ? {} : { feeLimit }),
      })
      const hash = createHash('sha256').update(raw).digest('hex')
      const signature = await sign({
        hash: `0x${hash}`,
        privateKey: `0x${owner.privateKey.replace(/^0x/, '')}` as Hex,
        to: 'hex',
      })
      const res = await fetch(`${tron.fullHost}/wallet/broadcasttransaction`, {
        method: 'POST',
        body: JSON.stringify({ raw_data_hex: raw.toString('hex'), signature: [signature.slice(2)] }),
      })
      return { status: res.status, body: await res.json() }
    }
    const usdt = Buffer.from(`41${toEvmAddress(tron.tokens['USDT-tron']!).slice(2)}`, 'hex')
    const balanceOf = async () =>
      (
        await (
          await fetch(`${tron.fullHost}/wallet/getaccount`, {
            method: 'POST',
            body: JSON.stringify({ address: owner.address, visible: true }),
          })
        ).json()
      ).balance as number
    const before = await balanceOf()
    const cases = [
      await send('TriggerSmartContract', Buffer.from('ff', 'hex')),
      await send(
        'TransferContract',
        encodeTransfer({ owner: ownerBytes, to: Buffer.from('4112', 'hex'), amount: 1n }),
      ),
      await send(
        'TriggerSmartContract',
        encodeTrigger({
          owner: ownerBytes,
          contract: usdt,
          callValue: -5n,
          data: Buffer.from('70a08231', 'hex'),
        }),
      ),
      await send(
        'TriggerSmartContract',
        encodeTrigger({
          owner: ownerBytes,
          contract: usdt,
          callValue: 0n,
          data: Buffer.from('70a08231', 'hex'),
        }),
        -2_000_000,
      ),
    ]
    for (const c of cases) {
      expect(c.status).toBe(200)
      expect(c.body.result).toBeUndefined()
      expect(c.body.code).toMatch(/ERROR$/)
    }
    expect(await balanceOf()).toBe(before)
    const bad = await fetch(`${tron.fullHost}/wallet/triggersmartcontract`, {
      method: 'POST',
      body: JSON.stringify({
        owner_address: owner.address,
        contract_address: tron.tokens['USDT-tron'],
        function_selector: 'totalSupply()',
        Permission_id: 1.5,
      }),
    })
    expect(bad.status).toBe(200)
    expect((await bad.json()).result.code).toBe('OTHER_ERROR')
  })

  it('mints USDT-tron to a T-address with the faucet, read back through TronWeb', async () => {
    const holder = freshTronAddress()
    const res = await fetch(`${t.server.url}/__sandbox/faucet`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': newApiKey() },
      body: JSON.stringify({ address: holder, currency: 'USDT-tron', amount: '5' }),
    })
    expect(res.ok).toBe(true)
    expect(await res.json()).toMatchObject({ address: holder, balance: '5' })
    const usdt = await tronWebOf(tron.accounts[0]!.privateKey).contract().at(tron.tokens['USDT-tron']!)
    expect(BigInt(await usdt.balanceOf(holder).call())).toBe(5_000_000n)
  })

  it('readiness means something: a wallet without TRX is told so, and its unsponsored call runs out of energy', async () => {
    const key = generatePrivateKey()
    const wallet = toTronAddress(privateKeyToAccount(key).address)
    const apiKey = newApiKey()
    const faucet = await fetch(`${t.server.url}/__sandbox/faucet`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({ address: wallet, currency: 'USDT-tron', amount: '20' }),
    })
    expect(faucet.ok).toBe(true)
    const headers = { 'content-type': 'application/json', 'x-api-key': apiKey }
    const created = await (
      await fetch(`${t.server.url}/v2/request`, {
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
      await fetch(`${t.server.url}/v2/request/${created.requestId}/pay?wallet=${wallet}`, { headers })
    ).json()
    expect(pay.metadata).toMatchObject({ hasEnoughBalance: true, hasEnoughGas: false, nativeBalance: '0' })
    expect(pay.metadata.energyRequired).toBeGreaterThan(0)
    expect(Number(pay.metadata.estimatedNetworkFee)).toBeGreaterThan(0)
    // the free bandwidth carries the transaction, but no TRX pays its energy
    const tw = tronWebOf(key.slice(2))
    const step = pay.transactions[0]
    const sent = await tw.trx.sendRawTransaction((await signStep(tw, wallet, step)).signed)
    expect(sent.result).toBe(true)
    const info = await tw.trx.getTransactionInfo(sent.txid)
    expect(info.receipt.result).toBe('OUT_OF_ENERGY')
    expect(info.receipt.net_usage).toBeGreaterThan(0)
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

/** A Tron step of the API as TronWeb builds it (on the node, from `from`) and signs it locally: not yet sent. */
async function signStep(
  tw: TronWeb,
  from: string,
  step: { to: string; functionSelector: string; parameter: string; feeLimit: number },
) {
  const built = await tw.transactionBuilder.triggerSmartContract(
    step.to,
    step.functionSelector,
    { feeLimit: step.feeLimit, rawParameter: step.parameter },
    [],
    from,
  )
  return { transaction: built.transaction, signed: await tw.trx.sign(built.transaction) }
}

/** A Tron step of the API as TronWeb sends it: built by the node, signed locally, broadcast; its receipt. */
async function sendStep(
  tw: TronWeb,
  from: string,
  step: { to: string; functionSelector: string; parameter: string; feeLimit: number },
) {
  const sent = await tw.trx.sendRawTransaction((await signStep(tw, from, step)).signed)
  expect(sent.result).toBe(true)
  const info = await tw.trx.getTransactionInfo(sent.txid)
  expect(info.receipt.result).toBe('SUCCESS')
  return { txid: sent.txid as string, fee: info.fee as number }
}

/** A Tron step of /pay. */
type TronStep = { to: string; functionSelector: string; parameter: string; feeLimit: number }

/** A fresh Tron wallet (a payee nobody else pays). */
const freshTronAddress = () => toTronAddress(privateKeyToAccount(generatePrivateKey()).address)

describeTransports(
  'Tron payments driven by TronWeb through %s',
  () => t,
  { http: 6, msw: 7 },
  (client, payerIndex) => {
    const call = (method: string, path: string, apiKey: string, body?: unknown) =>
      client().call(method, path, { apiKey, ...(body ? { body } : {}) })

    /** Pays the API's Tron steps with TronWeb from `payer`; answers the payment's txid and the TRX burnt. */
    async function payWithTronWeb(payer: { address: string; privateKey: string }, transactions: TronStep[]) {
      const tw = tronWebOf(payer.privateKey)
      let fees = 0
      let txid = ''
      for (const step of transactions) {
        expect(step).toMatchObject({
          to: expect.stringMatching(/^T/),
          value: 0,
          feeLimit: expect.any(Number),
        })
        const sent = await sendStep(tw, payer.address, step)
        fees += sent.fee
        txid = sent.txid
      }
      return { txid, fees }
    }

    /** A Tron USDT payout link of `amount` created by `creator` (to a fresh recipient unless given). */
    const tronPayout = (apiKey: string, creator: string, amount: string, recipient = freshTronAddress()) =>
      call('POST', '/v2/secure-payments/payouts', apiKey, {
        recipient,
        creatorWalletAddress: creator,
        network: 'tron',
        currency: 'USDT-tron',
        amount,
      })

    /** `GET /v2/secure-payments/{token}/pay` for `wallet`. */
    const linkPay = (apiKey: string, token: string, wallet: string) =>
      call('GET', `/v2/secure-payments/${token}/pay?wallet=${wallet}`, apiKey)

    async function untilPaid(apiKey: string, requestId: string) {
      return waitFor(async () => {
        const res = await call('GET', `/v2/request/${requestId}`, apiKey)
        return res.body.hasBeenPaid ? res.body : undefined
      })
    }

    it('pays a USDT-tron request: T-addresses, Tron steps, detected, webhook signed, balances through TronWeb', async () => {
      const apiKey = newApiKey()
      const payer = tron.accounts[payerIndex]!
      const payee = freshTronAddress()
      const hook = await call('POST', '/v2/webhook', apiKey, { url: receiver.url })
      receiver.secret = hook.body.secret
      const created = await call('POST', '/v2/request', apiKey, {
        payee,
        amount: '12.5',
        invoiceCurrency: 'USDT-tron',
        paymentCurrency: 'USDT-tron',
      })
      expect(created.status).toBe(201)
      const pay = await call(
        'GET',
        `/v2/request/${created.body.requestId}/pay?wallet=${payer.address}`,
        apiKey,
      )
      expect(pay.status).toBe(200)
      expect(pay.body.metadata).toMatchObject({ network: 'tron', hasEnoughBalance: true, hasEnoughGas: true })
      expect(pay.body.transactions.at(-1)).toMatchObject({
        to: tron.contracts.ERC20FeeProxy,
        functionSelector: 'transferFromWithReferenceAndFee(address,address,uint256,bytes,uint256,address)',
      })
      const tw = tronWebOf(payer.privateKey)
      const trxBefore = await tw.trx.getBalance(payer.address)
      const { txid, fees } = await payWithTronWeb(payer, pay.body.transactions)
      const status = await untilPaid(apiKey, created.body.requestId)
      expect(status).toMatchObject({ status: 'paid', hasBeenPaid: true })
      const payments = await call('GET', `/v2/payments?requestId=${created.body.requestId}`, apiKey)
      // Tron gas fees in the breakdown: the TRX the payment transaction burnt (its receipt's fee)
      const payment = payments.body.payments[0]
      expect(payment).toMatchObject({ sourceNetwork: 'tron', sourceTxHash: txid })
      const gas = payment.fees.find((f: { type: string }) => f.type === 'gas')
      expect(gas).toMatchObject({ currency: 'TRX', network: 'tron' })
      const paymentInfo = await tronWebOf(payer.privateKey).trx.getTransactionInfo(txid)
      expect(Number(gas.amount)).toBeCloseTo(paymentInfo.fee / 1e6, 6)
      // the webhook: signed, naming the Tron transaction
      const delivered = await waitFor(() =>
        receiver.received.find(
          (r) => r.body?.event === 'payment.confirmed' && r.body.requestId === created.body.requestId,
        ),
      )
      expect(delivered.signatureValid).toBe(true)
      expect(delivered.body.txHash).toBe(txid)
      // balances read back through TronWeb: the payee got the USDT, the payer burnt exactly the receipts' fees
      const usdt = await tw.contract().at(tron.tokens['USDT-tron']!)
      expect(BigInt(await usdt.balanceOf(payee).call())).toBe(12_500_000n)
      expect(await tw.trx.getBalance(payer.address)).toBe(trxBefore - fees)
    })

    it('funds a fresh TronWeb account with the faucet (TRX-tron, USDT-tron, USDC-tron): it reads them back and pays', async () => {
      const apiKey = newApiKey()
      const fresh = TronWeb.createRandom()
      const privateKey = fresh.privateKey.replace(/^0x/, '')
      const holder = TronWeb.address.fromPrivateKey(privateKey) as string
      const tw = tronWebOf(privateKey)
      expect(await tw.trx.getBalance(holder)).toBe(0)
      const fund = (currency: string, amount: string, address = holder) =>
        call('POST', '/__sandbox/faucet', apiKey, { address, currency, amount })
      const trx = await fund('TRX-tron', '50.5')
      expect(trx.status, trx.text).toBe(200)
      expect(trx.body).toMatchObject({
        address: holder,
        currency: 'TRX-tron',
        network: 'tron',
        balance: '50.5',
        txHash: null,
      })
      expect(await tw.trx.getBalance(holder)).toBe(50_500_000)
      for (const [currency, amount] of [
        ['USDT-tron', '20'],
        ['USDC-tron', '7.25'],
      ] as const) {
        const res = await fund(currency, amount)
        expect(res.status, res.text).toBe(200)
        expect(res.body).toMatchObject({
          address: holder,
          balance: amount,
          txHash: expect.stringMatching(/^0x/),
        })
        const token = await tw.contract().at(tron.tokens[currency]!)
        expect(BigInt(await token.balanceOf(holder).call())).toBe(BigInt(Number(amount) * 1e6))
      }
      // TRX is set, not added (a wallet can be emptied for "not enough TRX" tests); `TRX` is the same coin
      expect((await fund('TRX', '0')).body).toMatchObject({ currency: 'TRX-tron', balance: '0' })
      expect(await tw.trx.getBalance(holder)).toBe(0)
      expect((await fund('TRX-tron', '40')).body.balance).toBe('40')
      // refusals: sun has 6 decimals; a T-address on an EVM chain; an EVM token's native id on Tron does not exist
      const finer = await fund('TRX-tron', '1.0000001')
      expect(finer.status).toBe(400)
      expect(finer.body.message).toMatch(/more decimals than TRX-tron supports \(6\)/)
      expect((await fund('FAU-sepolia', '1')).status).toBe(400)
      expect((await fund('ETH-tron-tron', '1')).status).toBe(400)
      // the funded account pays a USDT-tron request on its own TRX: readiness says so, the fees come off its TRX
      const payee = freshTronAddress()
      const created = await call('POST', '/v2/request', apiKey, {
        payee,
        amount: '10',
        invoiceCurrency: 'USDT-tron',
        paymentCurrency: 'USDT-tron',
      })
      expect(created.status).toBe(201)
      const pay = await call('GET', `/v2/request/${created.body.requestId}/pay?wallet=${holder}`, apiKey)
      expect(pay.status).toBe(200)
      expect(pay.body.metadata).toMatchObject({
        hasEnoughBalance: true,
        hasEnoughGas: true,
        nativeBalance: '40',
      })
      const { fees } = await payWithTronWeb({ address: holder, privateKey }, pay.body.transactions)
      expect(fees).toBeGreaterThan(0)
      await untilPaid(apiKey, created.body.requestId)
      const usdt = await tw.contract().at(tron.tokens['USDT-tron']!)
      expect(BigInt(await usdt.balanceOf(payee).call())).toBe(10_000_000n)
      expect(BigInt(await usdt.balanceOf(holder).call())).toBe(10_000_000n)
      expect(await tw.trx.getBalance(holder)).toBe(40_000_000 - fees)
    })

    it('pays a single Tron payout (POST /v2/payouts with a T payee) the same way', async () => {
      const apiKey = newApiKey()
      const payer = tron.accounts[payerIndex]!
      const payee = freshTronAddress()
      const res = await call('POST', '/v2/payouts', apiKey, {
        payee,
        amount: '3',
        invoiceCurrency: 'USDT-tron',
        paymentCurrency: 'USDT-tron',
        payerWallet: payer.address,
        reference: 'PAYOUT-001',
      })
      expect(res.status).toBe(201)
      await payWithTronWeb(payer, res.body.transactions)
      await untilPaid(apiKey, res.body.requestId)
      const usdt = await tronWebOf(payer.privateKey).contract().at(tron.tokens['USDT-tron']!)
      expect(BigInt(await usdt.balanceOf(payee).call())).toBe(3_000_000n)
    })

    it('pays a Tron secure payout link through /{token}/tron/broadcast: sponsored resources, $3.99 fee leg, link completed', async () => {
      const apiKey = newApiKey()
      const payer = tron.accounts[payerIndex]!
      const recipient = freshTronAddress()
      const hook = await call('POST', '/v2/webhook', apiKey, { url: receiver.url })
      receiver.secret = hook.body.secret
      const created = await call('POST', '/v2/secure-payments/payouts', apiKey, {
        recipient,
        creatorWalletAddress: payer.address,
        network: 'tron',
        currency: 'USDT-tron',
        amount: '250',
        reference: 'INVOICE-2026-042',
      })
      expect(created.status).toBe(201)
      const resourceFee = created.body.feePlan.fees.find((f: { type: string }) => f.type === 'tron_resource')
      expect(resourceFee).toMatchObject({
        fixedAmountUsd: '3.99',
        calculatedAmountUsd: '3.99',
        feeBearer: 'payer',
      })
      expect(created.body.feePlan.payerTotalAmountUsd).toBe('253.99')
      const { token } = created.body
      const pay = await linkPay(apiKey, token, payer.address)
      expect(pay.status).toBe(200)
      expect(pay.body.metadata).toMatchObject({ transactionSponsorshipFeeUsd: '3.99', hasEnoughGas: true })
      const legs = pay.body.feeBundle.fees.map((f: { feeType: string }) => f.feeType)
      expect(legs).toEqual(['tron_resource'])
      const tw = tronWebOf(payer.privateKey)
      const trxBefore = await tw.trx.getBalance(payer.address)
      const usdt = await tw.contract().at(tron.tokens['USDT-tron']!)
      const treasury = resourceFee.destinationRef.tronAddress as string
      const treasuryBefore = BigInt(await usdt.balanceOf(treasury).call())
      for (const step of pay.body.transactions) {
        const built = await signStep(tw, payer.address, step)
        const sent = await call('POST', `/v2/secure-payments/${token}/tron/broadcast`, apiKey, {
          signedTransaction: built.signed,
        })
        expect(sent.status, sent.text).toBe(200)
        expect(sent.body).toMatchObject({ result: true, txid: built.transaction.txID })
      }
      await waitFor(async () => {
        const res = await call('GET', `/v2/secure-payments/${token}`, apiKey)
        return res.status === 409 || res.body?.status === 'completed' ? true : undefined
      })
      expect(BigInt(await usdt.balanceOf(recipient).call())).toBe(250_000_000n)
      expect(BigInt(await usdt.balanceOf(treasury).call())).toBe(treasuryBefore + 3_990_000n)
      // sponsored: the payer burnt no TRX
      expect(await tw.trx.getBalance(payer.address)).toBe(trxBefore)
      const delivered = await waitFor(() =>
        receiver.received.find(
          (r) => r.body?.event === 'payment.confirmed' && r.body.requestId === created.body.requestIds[0],
        ),
      )
      expect(delivered.signatureValid).toBe(true)
      // a transaction the link does not expect is refused before it reaches the chain
      const other = await tronPayout(apiKey, payer.address, '1', recipient)
      const stranger = await tw.transactionBuilder.triggerSmartContract(
        tron.tokens['USDT-tron']!,
        'transfer(address,uint256)',
        { feeLimit: 100_000_000 },
        [
          { type: 'address', value: recipient },
          { type: 'uint256', value: 5 },
        ],
        payer.address,
      )
      const refused = await call('POST', `/v2/secure-payments/${other.body.token}/tron/broadcast`, apiKey, {
        signedTransaction: await tw.trx.sign(stranger.transaction),
      })
      expect(refused.status).toBe(400)
      expect(refused.body.message).toMatch(/does not match/)
      // the page's broadcast route takes only steps of its own link: another link's payment step is refused there
      const third = await tronPayout(apiKey, payer.address, '1', recipient)
      const otherPay = await linkPay(apiKey, other.body.token, payer.address)
      const step = otherPay.body.transactions.find((s: { functionSelector: string }) =>
        s.functionSelector.startsWith('transferFromWithReferenceAndFee'),
      )
      const built = await signStep(tw, payer.address, step)
      const signedTransaction = built.signed
      const pagePost = (linkToken: string) =>
        fetch(`${t.server.url}/__sandbox/secure-payments/${linkToken}/tron/broadcast`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ signedTransaction }),
        })
      const elsewhere = await pagePost(third.body.token)
      expect(elsewhere.status).toBe(400)
      expect((await elsewhere.json()).message).toMatch(/does not match/)
      const own = await pagePost(other.body.token)
      expect(own.status).toBe(200)
      expect(await own.json()).toMatchObject({ result: true, txid: built.transaction.txID })
    })

    it('a Tron link follows what executed on chain: fee leg first or payment first, each leg once, completed only with both, a reverted fee leg not counted', async () => {
      const apiKey = newApiKey()
      const payer = tron.accounts[payerIndex]!
      const tw = tronWebOf(payer.privateKey)
      const usdt = await tw.contract().at(tron.tokens['USDT-tron']!)
      const newLink = async (amount: string) => {
        const res = await tronPayout(apiKey, payer.address, amount)
        expect(res.status, res.text).toBe(201)
        const treasury = res.body.feePlan.fees.find((f: { type: string }) => f.type === 'tron_resource')
          .destinationRef.tronAddress as string
        return { token: res.body.token as string, requestId: res.body.requestIds[0] as string, treasury }
      }
      const payOf = async (token: string) => {
        const res = await linkPay(apiKey, token, payer.address)
        expect(res.status, res.text).toBe(200)
        return res.body as { transactions: TronStep[]; metadata: Record<string, unknown> }
      }
      /** the fee leg is the transfer(address,uint256) to the treasury; the payment steps are the others */
      const isFee = (step: TronStep) => step.functionSelector === 'transfer(address,uint256)'
      const broadcast = async (token: string, step: TronStep) => {
        return call('POST', `/v2/secure-payments/${token}/tron/broadcast`, apiKey, {
          signedTransaction: (await signStep(tw, payer.address, step)).signed,
        })
      }
      const linkStatus = async (requestId: string) =>
        (await call('GET', `/v2/secure-payments?requestId=${requestId}`, apiKey)).body.status as string
      const requestPaid = async (requestId: string) =>
        (await call('GET', `/v2/request/${requestId}`, apiKey)).body.hasBeenPaid as boolean

      // 1. the fee leg first: counted once, the request unpaid, the link pending; /pay then answers the payment only
      const first = await newLink('5')
      const treasuryBefore = BigInt(await usdt.balanceOf(first.treasury).call())
      const steps = (await payOf(first.token)).transactions
      const feeStep = steps.find(isFee)!
      expect(steps.at(-1)).toBe(feeStep)
      const fee = await broadcast(first.token, feeStep)
      expect(fee.status, fee.text).toBe(200)
      expect(BigInt(await usdt.balanceOf(first.treasury).call())).toBe(treasuryBefore + 3_990_000n)
      expect(await requestPaid(first.requestId)).toBe(false)
      expect(await linkStatus(first.requestId)).toBe('pending')
      const again = await broadcast(first.token, feeStep)
      expect(again.status).toBe(400)
      expect(again.body.message).toMatch(/resource fee of this secure payment has already been sent/)
      expect(BigInt(await usdt.balanceOf(first.treasury).call())).toBe(treasuryBefore + 3_990_000n)
      const rest = await payOf(first.token)
      expect(rest.transactions.some(isFee)).toBe(false)
      expect(rest.transactions.length).toBe(steps.length - 1)
      expect(rest.metadata).toMatchObject({ requiredAmount: '5', stepsRequired: steps.length - 1 })
      for (const step of rest.transactions) expect((await broadcast(first.token, step)).status).toBe(200)
      await waitFor(async () => ((await linkStatus(first.requestId)) === 'completed' ? true : undefined))
      expect(await requestPaid(first.requestId)).toBe(true)
      expect((await broadcast(first.token, feeStep)).status).toBe(409)
      expect(BigInt(await usdt.balanceOf(first.treasury).call())).toBe(treasuryBefore + 3_990_000n)

      // 2. the payment first: the request is paid (it executed), the link is not completed until its fee leg executes
      const second = await newLink('6')
      const all = (await payOf(second.token)).transactions
      for (const step of all.filter((x) => !isFee(x)))
        expect((await broadcast(second.token, step)).status).toBe(200)
      await waitFor(async () => ((await requestPaid(second.requestId)) ? true : undefined))
      expect(await linkStatus(second.requestId)).toBe('pending')
      const feeOnly = await payOf(second.token)
      expect(feeOnly.transactions).toEqual([all.find(isFee)])
      expect(feeOnly.metadata).toMatchObject({
        requiredAmount: '3.99',
        sourceAmount: '0',
        stepsRequired: 1,
        paymentTransactionIndex: 0,
      })
      // a second payment is refused before it reaches the chain
      const twice = await broadcast(
        second.token,
        all.find((x) => !isFee(x) && x.functionSelector !== 'approve(address,uint256)')!,
      )
      expect(twice.status).toBe(400)
      expect(twice.body.message).toMatch(/only its resource-fee leg remains/)
      const before = BigInt(await usdt.balanceOf(second.treasury).call())
      expect((await broadcast(second.token, feeOnly.transactions[0]!)).status).toBe(200)
      expect(BigInt(await usdt.balanceOf(second.treasury).call())).toBe(before + 3_990_000n)
      await waitFor(async () => ((await linkStatus(second.requestId)) === 'completed' ? true : undefined))

      // 3. a fee leg that reverts on chain (its payer holds no USDT) counts for nothing: /pay still asks for it
      const key = generatePrivateKey().slice(2)
      const poor = { address: TronWeb.address.fromPrivateKey(key) as string, tw: tronWebOf(key) }
      const third = await tronPayout(apiKey, poor.address, '1')
      const poorPay = await linkPay(apiKey, third.body.token, poor.address)
      expect(poorPay.body.metadata.hasEnoughBalance).toBe(false)
      const poorFee = poorPay.body.transactions.find(isFee)
      const sent = await call('POST', `/v2/secure-payments/${third.body.token}/tron/broadcast`, apiKey, {
        signedTransaction: (await signStep(poor.tw, poor.address, poorFee)).signed,
      })
      expect(sent.status, sent.text).toBe(200)
      expect((await poor.tw.trx.getTransactionInfo(sent.body.txid)).receipt.result).toBe('REVERT')
      const stillDue = await linkPay(apiKey, third.body.token, poor.address)
      expect(stillDue.body.transactions.some(isFee)).toBe(true)
      expect(stillDue.body.metadata.requiredAmount).toBe('4.99')

      // 4. two fee legs of one link sent at once (two signed transactions, both valid on chain): one is broadcast
      const fourth = await newLink('2')
      const fourthFee = (await payOf(fourth.token)).transactions.find(isFee)!
      const legs = [await signStep(tw, payer.address, fourthFee)]
      while (legs.length < 2) {
        const next = await signStep(tw, payer.address, {
          ...fourthFee,
          feeLimit: fourthFee.feeLimit + legs.length,
        })
        if (next.transaction.txID !== legs[0]!.transaction.txID) legs.push(next)
      }
      const treasuryAtFourth = BigInt(await usdt.balanceOf(fourth.treasury).call())
      const racing = await Promise.all(
        legs.map((leg) =>
          call('POST', `/v2/secure-payments/${fourth.token}/tron/broadcast`, apiKey, {
            signedTransaction: leg.signed,
          }),
        ),
      )
      expect(racing.map((r) => r.status).sort()).toEqual([200, 400])
      expect(BigInt(await usdt.balanceOf(fourth.treasury).call())).toBe(treasuryAtFourth + 3_990_000n)

      // 5. the payment sent again right after it executed (before the detector saw it), or twice at once: once
      const recipient = freshTronAddress()
      const fifth = await tronPayout(apiKey, payer.address, '3', recipient)
      const fifthSteps = (await payOf(fifth.body.token)).transactions.filter((x) => !isFee(x))
      const payment = fifthSteps.at(-1)!
      for (const step of fifthSteps.slice(0, -1))
        expect((await broadcast(fifth.body.token, step)).status).toBe(200)
      const payments = [await signStep(tw, payer.address, payment)]
      while (payments.length < 3) {
        const next = await signStep(tw, payer.address, {
          ...payment,
          feeLimit: payment.feeLimit + payments.length,
        })
        if (payments.every((p) => p.transaction.txID !== next.transaction.txID)) payments.push(next)
      }
      const send = (p: { signed: unknown }) =>
        call('POST', `/v2/secure-payments/${fifth.body.token}/tron/broadcast`, apiKey, {
          signedTransaction: p.signed,
        })
      const atOnce = await Promise.all(payments.slice(0, 2).map(send))
      const after = await send(payments[2]!)
      expect(BigInt(await usdt.balanceOf(recipient).call())).toBe(3_000_000n)
      expect([...atOnce.map((r) => r.status), after.status].sort()).toEqual([200, 400, 400])
    })

    it('settles a fee-leg claim its call left behind (a restart with --state-dir) by what the chain holds', async () => {
      const apiKey = newApiKey()
      const payer = tron.accounts[payerIndex]!
      const tw = tronWebOf(payer.privateKey)
      const created = await tronPayout(apiKey, payer.address, '2')
      expect(created.status, created.text).toBe(201)
      const token = created.body.token as string
      const links = securePaymentState(t.sandbox.shared.tenants.get(apiKey)).securePayments
      const isFee = (step: TronStep) => step.functionSelector === 'transfer(address,uint256)'
      const feeStep = (await linkPay(apiKey, token, payer.address)).body.transactions.find(isFee) as TronStep
      const claimed = (txId: string) =>
        links.update(token, (d) => {
          d.resourceFee = { txId, executed: false }
        })
      // claimed, never broadcast: the leg is due again, and accepted
      await claimed('ab'.repeat(32))
      const due = await linkPay(apiKey, token, payer.address)
      expect(due.body.transactions.some(isFee)).toBe(true)
      expect(due.body.metadata.requiredAmount).toBe('5.99')
      const sent = await call('POST', `/v2/secure-payments/${token}/tron/broadcast`, apiKey, {
        signedTransaction: (await signStep(tw, payer.address, feeStep)).signed,
      })
      expect(sent.status, sent.text).toBe(200)
      // broadcast and executed, but its record cut short: it counts as executed, and is not asked for again
      await claimed(sent.body.txid)
      const rest = await linkPay(apiKey, token, payer.address)
      expect(rest.body.transactions.some(isFee)).toBe(false)
      expect(links.get(token)!.resourceFee).toEqual({ txId: sent.body.txid, executed: true })
      const again = await call('POST', `/v2/secure-payments/${token}/tron/broadcast`, apiKey, {
        signedTransaction: (await signStep(tw, payer.address, { ...feeStep, feeLimit: feeStep.feeLimit + 1 }))
          .signed,
      })
      expect(again.status).toBe(400)
      expect(again.body.message).toMatch(/already been sent/)
    })

    it('refuses T-addresses on EVM currencies, and Tron batches with the documented message', async () => {
      const apiKey = newApiKey()
      const onEvm = await call('POST', '/v2/request', apiKey, {
        payee: freshTronAddress(),
        amount: '1',
        invoiceCurrency: 'FAU-sepolia',
        paymentCurrency: 'FAU-sepolia',
      })
      expect(onEvm.status).toBe(400)
      const batch = await call('POST', '/v2/payouts/batch', apiKey, {
        requests: [1, 2].map(() => ({
          payee: freshTronAddress(),
          amount: '1',
          invoiceCurrency: 'USDT-tron',
          paymentCurrency: 'USDT-tron',
        })),
        payer: tron.accounts[payerIndex]!.address,
      })
      const link = await call('POST', '/v2/secure-payments', apiKey, {
        requests: [1, 2].map(() => ({ payee: freshTronAddress(), currency: 'USDT-tron', amount: '1' })),
      })
      expect(link.status).toBe(400)
      expect(link.body.message).toBe(
        'Batch payments are not supported for TRON networks. Please submit individual payment requests.',
      )
      expect(batch.status).toBe(400)
      expect(batch.body.message).toBe(
        'Batch payments are not supported for TRON networks. Please submit individual payment requests.',
      )
    })
  },
)
