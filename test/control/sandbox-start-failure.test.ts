// A createSandbox that fails leaves nothing behind the error: state.db closed (its connections and the writer's
// checkpointer thread), and every step before the one that failed undone (webhook deliveries, worlds).
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it, vi } from 'vitest'
import { openStateDb, StateWriter } from '../../src/persistence/index.ts'
import { ChainFleet } from '../../src/sandbox/chains.ts'
import { createSandbox } from '../../src/sandbox.ts'
import { Tenants } from '../../src/store/tenants.ts'
import { WebhookDelivery } from '../../src/webhooks/index.ts'

it('closes state.db when the saved state cannot be read (a state.db of another format)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-start-failure-'))
  const first = await createSandbox({ stateDir: dir, chain: false, log: () => {} })
  await first.close()
  const db = openStateDb(join(dir, 'state.db'))
  db.prepare("UPDATE meta SET value = '99' WHERE key = 'format'").run()
  db.close()
  // this spy only (the files of a worker share their modules)
  const writerClosed = vi.spyOn(StateWriter.prototype, 'close')
  try {
    await expect(createSandbox({ stateDir: dir, chain: false, log: () => {} })).rejects.toThrow(
      /holds state.db format 99/,
    )
    // the writer's close waits for its checkpointer thread to exit: the failed start awaited it
    expect(writerClosed).toHaveBeenCalledTimes(1)
    await expect(writerClosed.mock.results[0]!.value).resolves.toBeUndefined()
  } finally {
    writerClosed.mockRestore()
  }
})

it('undoes the steps before a step that fails after the state dir opened: state dir, webhooks, worlds', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-start-failure-'))
  const onEachChain = ChainFleet.prototype.onEachChain
  let setups = 0
  // the second per-chain setup is the detectors' (wireDetection, after openState): it fails
  const failing = vi.spyOn(ChainFleet.prototype, 'onEachChain').mockImplementation(function (
    this: ChainFleet,
    setup,
  ) {
    if (++setups === 2) throw new Error('the detectors could not start')
    return onEachChain.call(this, setup)
  })
  const writerClosed = vi.spyOn(StateWriter.prototype, 'close')
  const webhooksClosed = vi.spyOn(WebhookDelivery.prototype, 'close')
  const worldsDisposed = vi.spyOn(Tenants.prototype, 'dispose')
  try {
    await expect(createSandbox({ stateDir: dir, chain: false, log: () => {} })).rejects.toThrow(
      'the detectors could not start',
    )
    expect(setups).toBe(2)
    expect(writerClosed).toHaveBeenCalledTimes(1)
    await expect(writerClosed.mock.results[0]!.value).resolves.toBeUndefined()
    expect(webhooksClosed).toHaveBeenCalledTimes(1)
    expect(worldsDisposed).toHaveBeenCalledTimes(1)
  } finally {
    for (const spy of [failing, writerClosed, webhooksClosed, worldsDisposed]) spy.mockRestore()
  }
  // nothing of it holds the dir: the next start opens it
  const next = await createSandbox({ stateDir: dir, chain: false, log: () => {} })
  await next.close()
})
