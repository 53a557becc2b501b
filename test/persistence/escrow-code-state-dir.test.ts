// A state dir whose saved chain holds another version's commerce escrow (the one before the fee bound, say) gets
// this version's code back at the escrow's address when it is restored: the API's calls match the contract.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { COMMERCE_ESCROW_ADDRESS } from '../../src/chain/index.ts'
import { createSandbox, type Sandbox } from '../../src/sandbox.ts'

const dir = mkdtempSync(join(tmpdir(), 'sandbox-escrow-code-'))
let sandbox: Sandbox | null = null
afterAll(async () => {
  await sandbox?.close()
  rmSync(dir, { recursive: true, force: true })
})

it("installs this version's escrow code over the one a saved chain brings back", async () => {
  sandbox = await createSandbox({ log: () => {}, stateDir: dir })
  const code = async () => sandbox!.chain!.publicClient.getCode({ address: COMMERCE_ESCROW_ADDRESS })
  const current = await code()
  expect(current).toMatch(/^0x[0-9a-f]{100,}/)
  // the saved chain holds other code at the escrow's address (as a state dir of an earlier version does)
  await sandbox.chain!.testClient.setCode({ address: COMMERCE_ESCROW_ADDRESS, bytecode: '0x600060005500' })
  await sandbox.chain!.testClient.mine({ blocks: 1 })
  await sandbox.close()

  sandbox = await createSandbox({ log: () => {}, stateDir: dir })
  expect(await code()).toBe(current)
}, 60_000)
