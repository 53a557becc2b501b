// A sandbox whose chains start together and one of them fails: the ones that did start are stopped before the
// error comes back (no anvil left running behind a createSandbox that threw).
import { readdirSync, readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { type NetworkName, newDeploymentSecret, sandboxKeys } from '../../src/chain/index.ts'
import { loadCatalogs } from '../../src/sandbox/catalogs.ts'
import { ChainFleet } from '../../src/sandbox/chains.ts'
import { waitFor } from '../support/wait.ts'

/** this process's anvil children (Linux /proc) */
function anvilChildren(): number[] {
  const pids: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      if (ppid === process.pid && comm.includes('anvil')) pids.push(Number(entry))
    } catch {
      // gone meanwhile
    }
  }
  return pids
}

it('stops the chains that started when another of the same start fails', async () => {
  const before = anvilChildren()
  const catalogs = loadCatalogs({ networks: ['sepolia'] })
  // a network the table does not know fails at once; sepolia's anvil is booting beside it
  catalogs.wanted = ['sepolia', 'atlantis' as NetworkName]
  await expect(ChainFleet.start({}, catalogs, sandboxKeys(newDeploymentSecret()))).rejects.toThrow(
    /unknown network atlantis/,
  )
  // sepolia's anvil is gone too (its exit is reaped a moment after the stop)
  await waitFor(() => (anvilChildren().every((pid) => before.includes(pid)) ? true : undefined), {
    timeoutMs: 2_000,
    intervalMs: 20,
    what: 'no anvil left running',
  })
})
