import { readFileSync } from 'node:fs'
import { z } from 'zod'

const NetworkEntry = z.object({ chainId: z.number().int(), contracts: z.record(z.string(), z.string()) })

/** Published chain ids and contract addresses per network (fixtures/networks.json). */
export type NetworkTable = Record<string, z.infer<typeof NetworkEntry>>

/** Loads fixtures/networks.json. */
export function loadNetworkTable(fixturesDir = new URL('../../fixtures/', import.meta.url)): NetworkTable {
  return z
    .record(z.string(), NetworkEntry)
    .parse(JSON.parse(readFileSync(new URL('networks.json', fixturesDir), 'utf8')))
}
