import { describe, expect, it } from 'vitest'
import type { CallInfo } from '../contract/middleware.ts'
import { isAdminRpcMethod, rpcGuardMiddleware, rpcMethods } from './rpc-guard.ts'

function callInfo(body: unknown, headers: Record<string, string>): CallInfo {
  return {
    request: { method: 'POST', path: '/rpc', query: {}, headers, rawBody: JSON.stringify(body) },
    route: { path: '/rpc' } as CallInfo['route'],
    caller: null,
    scenario: 'default',
  }
}

describe('the /rpc guard', () => {
  it('tells wallet methods from admin ones', () => {
    expect(['eth_call', 'net_version', 'web3_sha3'].map(isAdminRpcMethod)).toEqual([false, false, false])
    expect(
      [
        'anvil_reset',
        'evm_revert',
        'hardhat_setCode',
        'debug_traceCall',
        'txpool_content',
        'eth_sendUnsignedTransaction',
      ].map(isAdminRpcMethod),
    ).toEqual([true, true, true, true, true, true])
    expect(rpcMethods('[{"method":"a"},{"method":"b"},1]')).toEqual(['a', 'b'])
    expect(rpcMethods('not json')).toEqual([])
  })

  it('lets any API key call admin methods outside strict mode, and none without a key', async () => {
    const guard = rpcGuardMiddleware({})
    const next = async () => ({ status: 200, headers: {}, body: 'ran' })
    const json = { 'content-type': 'application/json' }
    await expect(
      guard(callInfo({ method: 'anvil_reset' }, { ...json, 'x-api-key': 'any' }), next),
    ).resolves.toMatchObject({
      body: 'ran',
    })
    await expect(guard(callInfo({ method: 'anvil_reset' }, json), next)).rejects.toMatchObject({
      status: 401,
    })
  })

  it('allows admin methods in strict mode by name, prefix or star', async () => {
    const next = async () => ({ status: 200, headers: {}, body: 'ran' })
    const headers = { 'content-type': 'application/json', 'x-api-key': 'k' }
    const apiKeys = new Set(['k'])
    const prefix = rpcGuardMiddleware({ apiKeys, rpcAdmin: ['evm_*'] })
    await expect(prefix(callInfo({ method: 'evm_revert' }, headers), next)).resolves.toMatchObject({
      body: 'ran',
    })
    await expect(prefix(callInfo({ method: 'anvil_reset' }, headers), next)).rejects.toMatchObject({
      status: 403,
    })
    const all = rpcGuardMiddleware({ apiKeys, rpcAdmin: ['*'] })
    await expect(all(callInfo({ method: 'anvil_reset' }, headers), next)).resolves.toMatchObject({
      body: 'ran',
    })
  })
  it("refuses claimed keys every admin method, whatever --rpc-admin allows the server's keys", async () => {
    const next = async () => ({ status: 200, headers: {}, body: 'ran' })
    for (const apiKeys of [new Set(['k']), undefined]) {
      const guard = rpcGuardMiddleware({
        ...(apiKeys ? { apiKeys } : {}),
        exposed: true,
        admitsKey: (key) => key === 'sk_sandbox_live',
        claimedKey: (key) => key.startsWith('sk_sandbox_'),
        rpcAdmin: ['evm_*'],
      })
      const as = (key: string) =>
        guard(
          callInfo({ method: 'evm_revert' }, { 'content-type': 'application/json', 'x-api-key': key }),
          next,
        )
      await expect(as('k')).resolves.toMatchObject({ body: 'ran' })
      await expect(as('sk_sandbox_live')).rejects.toMatchObject({
        status: 403,
        message: expect.stringMatching(
          /evm_revert changes the chain of every key: refused to the keys of claimable/,
        ),
      })
      await expect(as('sk_sandbox_gone')).rejects.toMatchObject({ status: 403 })
    }
  })
})
