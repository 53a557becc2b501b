// /rpc is shared by every key: wallet methods stay open, methods that change the chain for everyone are guarded.
import { expect, it } from 'vitest'
import { describeTransports, useTransports } from '../support/clients.ts'

const KEY = 'rn_strict_key'
const t = useTransports(() => KEY, { apiKeys: [KEY, 'rn_other_key'], rpcAdmin: ['evm_mine'] })

const call = (method: string, params: unknown[] = []) => ({ jsonrpc: '2.0', id: 1, method, params })

function expectServiceError(
  res: { status: number; body: { statusCode?: number; message?: string } },
  status: number,
  message: RegExp,
) {
  expect(res.status).toBe(status)
  expect(res.body).toMatchObject({ statusCode: status, error: expect.any(String) })
  expect(res.body.message).toMatch(message)
}

describeTransports(
  'the /rpc guard in strict mode through %s',
  () => t,
  (client) => {
    const blockNumber = async () =>
      Number(
        (await client().call('POST', '/rpc', { apiKey: null, body: call('eth_blockNumber') })).body.result,
      )

    it('lets eth_*, net_* and web3_* through without a key, from a web page too (CORS)', async () => {
      const expected: Record<string, RegExp> = {
        eth_chainId: /^0xaa36a7$/,
        net_version: /^11155111$/,
        web3_clientVersion: /^anvil\//,
      }
      for (const [method, result] of Object.entries(expected)) {
        const res = await client().call('POST', '/rpc', {
          apiKey: null,
          headers: { origin: 'https://app.example' },
          body: call(method),
        })
        expect(res.status).toBe(200)
        expect(res.body.result, method).toMatch(result)
        expect(res.headers.get('access-control-allow-origin')).toBe('*')
      }
      const plain = await client().call('POST', '/rpc', {
        apiKey: null,
        headers: { 'content-type': 'text/plain' },
        rawBody: JSON.stringify(call('eth_chainId')),
      })
      expect(plain.body.result).toBe('0xaa36a7')
    })

    it('refuses admin methods without an API key, and with a key outside strict mode list', async () => {
      const before = await blockNumber()
      expectServiceError(
        await client().call('POST', '/rpc', { apiKey: null, body: call('evm_mine') }),
        401,
        /evm_mine changes the chain of every key: send an x-api-key/,
      )
      expectServiceError(
        await client().call('POST', '/rpc', { apiKey: 'rn_unknown', body: call('evm_mine') }),
        401,
        /Unauthorized/,
      )
      expect(await blockNumber()).toBe(before)
    })

    it('refuses admin methods in strict mode unless --rpc-admin allows them, batches included', async () => {
      const snapshotBefore = await blockNumber()
      for (const method of [
        'evm_snapshot',
        'anvil_setCode',
        'anvil_reset',
        'hardhat_mine',
        'debug_traceCall',
      ]) {
        expectServiceError(
          await client().call('POST', '/rpc', { body: call(method) }),
          403,
          new RegExp(
            `${method} changes the chain of every key: refused in strict mode \\(allow it with --rpc-admin ${method}\\)`,
          ),
        )
      }
      // a batch smuggling one refused method in is refused whole
      const batch = await client().call('POST', '/rpc', {
        body: [call('eth_chainId'), { ...call('anvil_setBalance', [`0x${'11'.repeat(20)}`, '0x1']), id: 2 }],
      })
      expectServiceError(batch, 403, /anvil_setBalance/)
      expect(await blockNumber()).toBe(snapshotBefore)

      const mined = await client().call('POST', '/rpc', { body: call('evm_mine') })
      expect(mined.status).toBe(200)
      expect(mined.body.result).toBeDefined()
      expect(await blockNumber()).toBeGreaterThan(snapshotBefore)
    })

    it('refuses admin methods to web pages: Loose Origin, or a text/plain body', async () => {
      const before = await blockNumber()
      expectServiceError(
        await client().call('POST', '/rpc', {
          headers: { origin: 'https://evil.example' },
          body: call('evm_mine'),
        }),
        403,
        /refused to web pages/,
      )
      expectServiceError(
        await client().call('POST', '/rpc', {
          headers: { 'content-type': 'text/plain' },
          rawBody: JSON.stringify(call('evm_mine')),
        }),
        415,
        /evm_mine needs an application\/json body \(got text\/plain\)/,
      )
      expect(await blockNumber()).toBe(before)
    })

    it('answers 413 to a body over 1 MiB instead of forwarding a cut one', async () => {
      const huge = JSON.stringify({ ...call('eth_chainId'), pad: 'x'.repeat(1024 * 1024 + 10) })
      const res = await client().call('POST', '/rpc', {
        apiKey: null,
        rawBody: huge,
        headers: { 'content-type': 'application/json' },
      })
      expectServiceError(res, 413, /too large/)
    })
  },
)
