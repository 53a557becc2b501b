// A createSandbox that fails once its state dir is open leaves nothing behind the error: state.db's writer closed
// (its connection and its checkpointer thread) and the sandbox's own connection with it.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it, vi } from 'vitest'
import { openStateDb } from '../../src/control/state-dir.ts'
import { StateWriter } from '../../src/control/state-writer.ts'
import { createSandbox } from '../../src/sandbox.ts'

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
