// What a snapshot file holds (src/snapshots/store.ts keeps them): its format, the shape it is checked against
// when read back, what lists show of it, and the names a snapshot may have.
import { readFileSync } from 'node:fs'
import { z } from 'zod'
import { WorldRulesSchema } from '../contract/rules.ts'
import { BadRequestError, SandboxError } from '../contract/sandbox-error.ts'

/** The format of a snapshot file this version writes and reads. */
export const SNAPSHOT_FORMAT = 1

/** A snapshot as it is kept. */
export interface SnapshotFile {
  format: number
  name: string
  tenant: string
  savedAt: string
  /** the key's scenario when it was taken (restored as its choice) */
  scenario: string
  /** the key's worlds as state-dir.ts serialises them (`SavedWorld`) */
  worlds: unknown[]
  /** the block each live chain was at: what the key's payments up to then depend on */
  chains: { network: string; blockNumber: number }[]
}

const NAME = /^[\w.-]{1,64}$/

/** The shape a snapshot file must have to be read back (`SavedWorld` of world.ts for each world). */
const SnapshotFileShape = z.object({
  format: z.literal(SNAPSHOT_FORMAT),
  name: z.string(),
  tenant: z.string(),
  savedAt: z.string(),
  scenario: z.string(),
  worlds: z.array(
    z.object({
      tenant: z.string(),
      scenario: z.string(),
      clockOffsetMs: z.number().finite(),
      rules: WorldRulesSchema,
      seeded: z.record(z.string(), z.unknown()).nullable(),
      tables: z.record(z.string(), z.array(z.unknown())),
      maps: z.record(z.string(), z.array(z.tuple([z.string(), z.unknown()]))),
    }),
  ),
  chains: z.array(z.object({ network: z.string(), blockNumber: z.number() })),
})

/**
 * 409: a snapshot whose file cannot be read back (cut short, edited, written by another version): the answer names
 * it and says how to be rid of it; the key's state and its other snapshots are untouched.
 */
export class DamagedSnapshotError extends SandboxError {
  override name = 'DamagedSnapshotError'
  constructor(name: string, problem: string) {
    super(
      409,
      `Snapshot ${name} is damaged and cannot be restored (${problem}); delete it (DELETE /__sandbox/snapshots/${name}, or request-sandbox snapshot rm ${name}) and save it again`,
    )
  }
}

/** What is wrong with a snapshot's text, or the file it holds. */
export function readSnapshot(text: string): { file: SnapshotFile } | { problem: string } {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return { problem: `its file is not valid JSON: ${(error as Error).message.slice(0, 200)}` }
  }
  const format = (value as { format?: unknown } | null)?.format
  if (typeof value === 'object' && value !== null && typeof format === 'number' && format !== SNAPSHOT_FORMAT)
    return { problem: `its file has format ${format}; this version reads ${SNAPSHOT_FORMAT}` }
  const parsed = SnapshotFileShape.safeParse(value)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    return { problem: `its file holds ${issue.path.join('.') || 'no snapshot'}: ${issue.message}` }
  }
  return { file: parsed.data as SnapshotFile }
}

/** What is wrong with a snapshot's file (one that cannot be read at all too: a folder, no permission), or what it holds. */
export function readSnapshotFile(
  path: string,
  read: (path: string) => string = (p) => readFileSync(p, 'utf8'),
): { file: SnapshotFile } | { problem: string } {
  let text: string
  try {
    text = read(path)
  } catch (error) {
    return { problem: `its file cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` }
  }
  return readSnapshot(text)
}

/** A snapshot the list could not read (GET /__sandbox/snapshots answers it beside the others). */
export interface DamagedSnapshot {
  name: string
  problem: string
}

export function checkSnapshotName(name: string): void {
  if (!NAME.test(name) || name === '.' || name === '..')
    throw new BadRequestError('A snapshot name is 1 to 64 letters, digits, _ . or -')
}

/** What lists and answers show of a snapshot. */
export interface SnapshotSummary {
  name: string
  savedAt: string
  scenario: string
  /** per world: its scenario and how many records each of its tables holds */
  worlds: { scenario: string; records: number }[]
  chains: { network: string; blockNumber: number }[]
}

export function summary(file: SnapshotFile): SnapshotSummary {
  const worlds = file.worlds as { scenario: string; tables: Record<string, unknown[]> }[]
  return {
    name: file.name,
    savedAt: file.savedAt,
    scenario: file.scenario,
    worlds: worlds.map((w) => ({
      scenario: w.scenario,
      records: Object.values(w.tables).reduce((n, records) => n + records.length, 0),
    })),
    chains: file.chains,
  }
}
