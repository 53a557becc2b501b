// The detector's sync() (what a test or a restart awaits: "the chain's payments up to now are recorded") resolves
// once a scan that began after the call has ended, even while new ticks keep coming. Under load the head watcher's
// 250 ms heartbeat arrived during every scan, and a sync() that waited for the chain to go quiet never resolved
// (a test of detection timed out in a suite run with two forks).
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createSandbox, type Sandbox } from '../../src/sandbox.ts'

let sandbox: Sandbox
beforeAll(async () => {
  sandbox = await createSandbox({})
}, 60_000)
afterAll(async () => {
  await sandbox?.close()
})

it('resolves sync() after one scan begun after the call, though a tick comes during every scan', async () => {
  const detector = sandbox.detectors.get('sepolia')!
  // a tick on every turn of the event loop, so one comes during every scan's reads: what the heartbeat does to a scan
  // slowed by a busy machine
  let ticking = true
  const tick = () => {
    void detector.sync()
    if (ticking) setImmediate(tick)
  }
  tick()
  try {
    const outcome = await Promise.race([
      detector.sync().then(() => 'synced'),
      new Promise((resolve) => setTimeout(() => resolve('still waiting after 5 s'), 5_000)),
    ])
    expect(outcome).toBe('synced')
  } finally {
    ticking = false
  }
  // and a sync with nothing else going on still resolves
  await expect(detector.sync()).resolves.toBeUndefined()
})
