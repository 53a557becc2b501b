// The sandbox on an anvil it does not own (`chain: {rpcUrl}`), which is stopped and started again: with its
// state kept, detected payments stay and new ones add up once; on a fresh chain, payments whose blocks are
// gone are dropped.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { type AnvilProcess, spawnAnvil } from '../../src/chain/anvil.ts'
import { execute, freshAddress, until } from '../support/chain.ts'
import { describeTransports, newApiKey, startTransports, type Transports } from '../support/clients.ts'

const SEPOLIA = 11155111
let anvil: AnvilProcess | null = null
let t: Transports | null = null
let dir: string | null = null

afterEach(async () => {
  await t?.close()
  await anvil?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
  t = anvil = dir = null
})

async function restart(port: number, args: string[]) {
  await anvil!.stop()
  anvil = await spawnAnvil({ chainId: SEPOLIA, port, args })
}

describeTransports(
  'an anvil restart under the detector, through %s',
  () => t!,
  { http: 8, msw: 9 },
  (client, account) => {
    async function setUp(args: string[]) {
      anvil = await spawnAnvil({ chainId: SEPOLIA, args })
      t = await startTransports(newApiKey, { chain: { rpcUrl: anvil.rpcUrl } })
      const apiKey = newApiKey()
      const created = await client().call('POST', '/v2/request', {
        apiKey,
        body: {
          amount: '10',
          invoiceCurrency: 'USDC-sepolia',
          paymentCurrency: 'USDC-sepolia',
          payee: freshAddress(),
        },
      })
      const requestId = created.body.requestId as string
      const status = () => client().call('GET', `/v2/request/${requestId}`, { apiKey })
      const pay = async (amount?: string) => {
        const res = await client().call('GET', `/v2/request/${requestId}/pay`, { apiKey, query: { amount } })
        await execute(t!.sandbox, res.body.transactions, account)
      }
      return { status, pay, port: Number(new URL(anvil.rpcUrl).port) }
    }

    it('keeps the payments of a chain restarted with its state and counts the next one once', async () => {
      dir = mkdtempSync(join(tmpdir(), 'sandbox-anvil-'))
      const args = ['--state', join(dir, 'state.json')]
      const { status, pay, port } = await setUp(args)
      await pay('4')
      await until(status, (r) => r.body.payments.length === 1)
      await restart(port, args)
      await pay()
      const { value } = await until(status, (r) => r.body.hasBeenPaid, { timeoutMs: 10_000, intervalMs: 5 })
      expect(value.body.payments.map((p: { amount: string }) => p.amount)).toEqual(['4', '6'])
      await t!.sandbox.detectors.get('sepolia')!.sync()
      expect((await status()).body.payments).toHaveLength(2)
    })

    it('drops the payments of a chain restarted from scratch', async () => {
      const { status, pay, port } = await setUp([])
      await pay()
      await until(status, (r) => r.body.hasBeenPaid)
      await restart(port, [])
      const { value } = await until(status, (r) => r.body.payments.length === 0, {
        timeoutMs: 10_000,
        intervalMs: 5,
      })
      expect(value.body).toMatchObject({ hasBeenPaid: false, status: 'pending', isListening: true })
    })
  },
)
