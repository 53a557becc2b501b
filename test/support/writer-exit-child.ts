// A process that ends (process.exit) while the checkpointer thread of its state.db writer copies a large WAL into the
// file: used by test/persistence/state-writer-exit.test.ts and bench/exit-panic.ts. argv: the state.db path, how it ends
// (`exit`: process.exit(0); `drain`: nothing left in its event loop), and the checkout whose writer runs (default this
// one). It prints `exiting` first.
import { statSync } from 'node:fs'
import type { WriteOp } from '../../src/persistence/writer.ts'

const path = process.argv[2]!
const drain = process.argv[3] === 'drain'
const checkout = new URL(`${process.argv[4] ?? new URL('../..', import.meta.url).pathname}/`, 'file:///')
const { openStateDb } = (await import(
  new URL('src/persistence/schema.ts', checkout).href
)) as typeof import('../../src/persistence/schema.ts')
const { StateWriter } = (await import(
  new URL('src/persistence/writer.ts', checkout).href
)) as typeof import('../../src/persistence/writer.ts')
openStateDb(path).close()
const writer = new StateWriter(path)
// ~48 MB in the WAL: the checkpointer's first PASSIVE round copies it (and syncs the file) for a while
const value = JSON.stringify({ pad: 'x'.repeat(4000) })
let seq = 0
for (let batch = 0; batch < 12; batch++) {
  const ops: WriteOp[] = []
  for (let i = 0; i < 1000; i++) ops.push(['insert', ++seq, 1, 't', `k${seq}`, value])
  writer.commit(ops)
}
const before = statSync(path).size
// the file grows while the checkpointer copies the WAL into it: the process ends at that moment, without close()
const poll = setInterval(() => {
  if (statSync(path).size === before) return
  clearInterval(poll)
  process.stdout.write('exiting\n')
  // drain: the timer below is unref'd and the checkpointer thread too, so the process ends as its loop runs dry
  if (!drain) process.exit(0)
}, 1)
// a checkpoint never seen: the run says so (the test expects it seen)
setTimeout(() => {
  process.stdout.write('no checkpoint seen\n')
  process.exit(3)
}, 20_000).unref()
