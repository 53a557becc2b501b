// The sandbox's Tron full node under TronWeb: bad input answers as TronGrid does (200 with the refusal) or a 4xx,
// never a 500; signed broadcasts with a broken contract, a short address or negative int64 fields are refused.
import { createHash } from 'node:crypto'
import type { Hex } from 'viem'
import { sign } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodeRawData, encodeTransfer, encodeTrigger, toEvmAddress } from '../../src/tron/index.ts'
import { newApiKey, startTransports, type Transports } from '../support/clients.ts'
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts'
import { type TronInfo, tronInfo } from './steps.ts'

let t: Transports
let receiver: WebhookReceiver
let tron: TronInfo
beforeAll(async () => {
  ;[t, receiver] = await Promise.all([
    startTransports(newApiKey, { networks: ['sepolia', 'tron'] }),
    startReceiver(),
  ])
  tron = await tronInfo(t.server.url)
})
afterAll(async () => {
  await t?.close()
  await receiver?.close()
})

describe('the Tron full node under TronWeb: refusals', () => {
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
})
