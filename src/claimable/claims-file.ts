// Reading `claims.json` at the start: a file that is not a claims file (empty, cut short, edited by hand) stops the
// start with a message naming it and what to do, not a bare JSON error; one that other users may read (a copy put
// back from a backup) is made 0600 again: it holds every live claimed key.
import { chmodSync, readFileSync, statSync } from 'node:fs'
import { z } from 'zod'

const isoTime = z.string().refine((s) => Number.isFinite(Date.parse(s)), 'a date-time')

const ClaimsFile = z.object({
  format: z.literal(1),
  claims: z.array(
    z.object({
      key: z.string().min(1),
      createdAt: isoTime,
      expiresAt: isoTime,
      expiredAt: isoTime.optional(),
      wiped: z.literal(true).optional(),
      address: z.string().optional(),
    }),
  ),
})

/** The claims `path` holds: none when it does not exist; throws naming the file when it is not a claims file. */
export function readClaimsFile(path: string): z.infer<typeof ClaimsFile>['claims'] {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw new Error(`--state-dir: ${path} cannot be read (${(error as Error).message})`)
  }
  let why: string
  try {
    const parsed = ClaimsFile.safeParse(JSON.parse(text))
    if (parsed.success) return parsed.data.claims
    const issue = parsed.error.issues[0]!
    why = `${issue.path.join('.') || 'the file'}: ${issue.message}`
  } catch (error) {
    why = text.trim() === '' ? 'it is empty' : (error as Error).message
  }
  throw new Error(
    `--state-dir: ${path} is not the claimable sandboxes' file (format 1, a list of claims; ${why}): put it back from your backup of the state dir, or move it away to start without those claims (their keys no longer pass, their state is kept)`,
  )
}

/**
 * Makes `path` readable by its owner only when others may read it; answers the mode it had then (null: it was
 * private, or is absent). Throws naming it when it cannot be made private.
 */
export function keepClaimsPrivate(path: string): number | null {
  let mode: number
  try {
    mode = statSync(path).mode & 0o777
  } catch {
    return null
  }
  if ((mode & 0o077) === 0) return null
  try {
    chmodSync(path, 0o600)
  } catch (error) {
    throw new Error(
      `--state-dir: ${path} can be read by other users (mode ${mode.toString(8)}) and cannot be made private (${(error as Error).message}): it holds every live claimed key`,
    )
  }
  return mode
}
