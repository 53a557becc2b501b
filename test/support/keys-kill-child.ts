// A first start killed (SIGKILL) in the middle of writing its keys file: every write of the sandbox's secret writes
// half its bytes, then the process kills itself. argv: the state dir, and the checkout whose keys.ts runs (default
// this one). Used by test/persistence/keys-file-kill.test.ts.
import { createRequire, syncBuiltinESMExports } from 'node:module'

const dir = process.argv[2]!
const checkout = new URL(`${process.argv[3] ?? new URL('../..', import.meta.url).pathname}/`, 'file:///')
const fs = createRequire(import.meta.url)('node:fs') as typeof import('node:fs')
const realWrite = fs.writeSync
const realWriteFile = fs.writeFileSync
const half = (data: unknown) => (typeof data === 'string' ? data.slice(0, data.length >> 1) : data)
const killed = (): never => {
  process.kill(process.pid, 'SIGKILL')
  throw new Error('unreachable')
}
fs.writeSync = ((fd: number, data: string) => {
  realWrite(fd, half(data) as string)
  return killed()
}) as unknown as typeof fs.writeSync
fs.writeFileSync = ((path: string, data: string, options: object) => {
  realWriteFile(path, half(data) as string, options)
  return killed()
}) as unknown as typeof fs.writeFileSync
syncBuiltinESMExports()
const { loadSandboxKeys } = (await import(
  new URL('src/sandbox/keys.ts', checkout).href
)) as typeof import('../../src/sandbox/keys.ts')
loadSandboxKeys({ stateDir: dir }, () => {})
process.stdout.write('not killed\n')
