import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createPublicClient, http } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isChainUnreachable } from '../contract/chain-unreachable.ts'
import { allowance, balanceOf, JsonRpcError, jsonRpc } from './json-rpc.ts'

const owner = '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7'
const spender = '0x0000000000000000000000000000000000000abc'
const token = '0x00000000000000000000000000000000000000aa'

// A node that answers from what it was asked: the tests see exactly what the client sent.
const seen: { method: string; params: unknown[]; authorization?: string }[] = []
let server: Server
let url: string

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = ''
    req.on('data', (c) => {
      text += c
    })
    req.on('end', () => resolve(text))
  })
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const call = JSON.parse(await body(req)) as { id: number; method: string; params: unknown[] }
    seen.push({ method: call.method, params: call.params, authorization: req.headers.authorization })
    const answer = (result: unknown) => res.end(JSON.stringify({ jsonrpc: '2.0', id: call.id, result }))
    if (call.method === 'slow') return
    if (call.method === 'not-json') return res.end('<html>proxy error</html>')
    if (call.method === 'busy') {
      res.statusCode = 503
      return res.end(JSON.stringify({ message: 'busy' }))
    }
    if (call.method === 'null') return res.end('null')
    if (call.method === 'eth_getBalance') return answer('0xde0b6b3a7640000')
    if (call.method === 'eth_call') {
      const { to, data } = call.params[0] as { to: string; data: string }
      if (to === token && data.startsWith('0x70a08231')) return answer(`0x${'0'.repeat(60)}04d2`)
      if (to === token && data.startsWith('0xdd62ed3e')) return answer(`0x${(2n ** 256n - 1n).toString(16)}`)
      return answer('0x')
    }
    res.end(
      JSON.stringify({ jsonrpc: '2.0', id: call.id, error: { code: -32601, message: 'Method not found' } }),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

describe('the lean JSON-RPC client', () => {
  it('reads native and ERC-20 balances and allowances, with the ABI-encoded calls', async () => {
    const call = jsonRpc(url)
    expect(await balanceOf(call, 'native', owner)).toBe(10n ** 18n)
    expect(await balanceOf(call, token, owner)).toBe(1234n)
    expect(await allowance(call, token, owner, spender)).toBe(2n ** 256n - 1n)
    const [, erc20, approval] = seen.slice(-3)
    expect(erc20!.params[0]).toEqual({
      to: token,
      data: `0x70a08231${'0'.repeat(24)}${owner.slice(2).toLowerCase()}`,
    })
    expect((approval!.params[0] as { data: string }).data).toBe(
      `0xdd62ed3e${'0'.repeat(24)}${owner.slice(2).toLowerCase()}${'0'.repeat(24)}${spender.slice(2)}`,
    )
  })

  it('refuses a view that answered no data, as viem does', async () => {
    await expect(balanceOf(jsonRpc(url), spender, owner)).rejects.toThrow(
      'balanceOf returned no uint256 (0x)',
    )
  })

  it("turns the node's error answer into a JsonRpcError with its code", async () => {
    const error = await jsonRpc(url)('anvil_nothing').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(JsonRpcError)
    expect(error).toMatchObject({ code: -32601, method: 'anvil_nothing' })
    expect(isChainUnreachable(error)).toBe(false)
  })

  it('says when the node answers something other than JSON-RPC, and counts that node unreachable (503)', async () => {
    for (const [method, status] of [
      ['not-json', 200],
      ['busy', 503],
      ['null', 200],
    ] as const) {
      const error = await jsonRpc(url)(method).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(Error)
      expect((error as Error).message).toContain(`answered ${status} without JSON-RPC`)
      expect(isChainUnreachable(error)).toBe(true)
    }
  })

  it('sends the credentials of the URL as Basic auth', async () => {
    await jsonRpc(url.replace('http://', 'http://user:p%40ss@'))('eth_getBalance', [owner, 'latest'])
    expect(seen.at(-1)!.authorization).toBe(`Basic ${Buffer.from('user:p@ss').toString('base64')}`)
  })

  it('rejects a node that does not answer in time, and one that is gone, as unreachable (503)', async () => {
    const slow = await jsonRpc(url)('slow', [], 100).catch((e: unknown) => e)
    expect(slow).toMatchObject({ code: 'ETIMEDOUT' })
    expect(isChainUnreachable(slow)).toBe(true)
    const probe = createServer()
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
    const port = (probe.address() as AddressInfo).port
    await new Promise((resolve) => probe.close(resolve))
    const gone = await jsonRpc(`http://127.0.0.1:${port}`)('eth_blockNumber').catch((e: unknown) => e)
    expect(gone).toMatchObject({ code: 'ECONNREFUSED' })
    expect(isChainUnreachable(gone)).toBe(true)
  })

  it("counts viem's own timeout (a node that stalls under a viem client) as unreachable (503), not a bug", async () => {
    const client = createPublicClient({ transport: http(url, { timeout: 100, retryCount: 0 }) })
    const stalled = await client.request({ method: 'slow' as never }).catch((e: unknown) => e)
    expect(stalled).toMatchObject({ name: 'TimeoutError' })
    expect(isChainUnreachable(stalled)).toBe(true)
  })
})
