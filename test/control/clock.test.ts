import { expect, it } from 'vitest'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'

const t = useTransports()

describeTransports(
  'the tenant clock through %s',
  () => t,
  (client) => {
    it('moves one tenant forward, leaves another alone, and takes the chain time with it', async () => {
      const alice = newApiKey()
      const bob = newApiKey()
      const before = Date.now()
      const moved = await client().call('POST', '/__sandbox/clock/advance', {
        apiKey: alice,
        body: { seconds: 3 * 86400 },
      })
      expect(moved.status).toBe(200)
      expect(new Date(moved.body.now).getTime()).toBeGreaterThanOrEqual(before + 3 * 86400_000)
      const other = await client().call('GET', '/__sandbox/clock', { apiKey: bob })
      expect(new Date(other.body.now).getTime()).toBeLessThan(before + 86400_000)
      const block = await t.sandbox.chain!.publicClient.getBlock()
      expect(Number(block.timestamp) * 1000).toBeGreaterThanOrEqual(new Date(moved.body.now).getTime() - 1000)
    })

    it('advances to a given time and refuses to go back', async () => {
      const apiKey = newApiKey()
      const to = new Date(Date.now() + 10 * 86400_000).toISOString()
      const res = await client().call('POST', '/__sandbox/clock/advance', { apiKey, body: { to } })
      expect(res.status).toBe(200)
      expect(Math.abs(new Date(res.body.now).getTime() - new Date(to).getTime())).toBeLessThan(1000)
      const back = await client().call('POST', '/__sandbox/clock/advance', {
        apiKey,
        body: { to: '2020-01-01' },
      })
      expect(back.status).toBe(400)
      expect(back.body.message).toMatch(/only moves forward/)
      for (const body of [{ seconds: -5 }, { seconds: 'x' }, {}, { to: 'yesterday' }]) {
        const bad = await client().call('POST', '/__sandbox/clock/advance', { apiKey, body })
        expect(bad.status, JSON.stringify(body)).toBe(400)
      }
    })

    it('runs a timed task when the clock passes it', async () => {
      const apiKey = newApiKey()
      const world = t.sandbox.shared.tenants.get(apiKey)
      const ran: string[] = []
      world.clock.schedule(new Date(world.clock.now().getTime() + 3600_000), 'test task', () => {
        ran.push('done')
      })
      expect(ran).toEqual([])
      await client().call('POST', '/__sandbox/clock/advance', { apiKey, body: { seconds: 3601 } })
      expect(ran).toEqual(['done'])
    })
  },
)
