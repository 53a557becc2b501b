// The deployment's secret, from which the sandbox's own accounts come (src/chain/sandbox-keys.ts): kept in
// --state-dir as `sandbox-keys.json` (mode 0600), so a restart signs with the same accounts its saved chain knows;
// made from the CSPRNG at the first start, and for a sandbox without a state dir at every start. `--seed` on a
// loopback listener derives it from the seed instead (the same role addresses run after run, as ids are); a shared
// listener never does, nor serves a state dir whose secret came from a seed. Never served: no answer, page or banner
// holds it or a key derived from it. The file is written whole to a temporary file, synced, then linked to its name
// (never overwriting: of two starts on one dir, the second reads the first's), so a kill leaves it whole or absent
// (and its temporary file, removed at the next start).
// One that cannot be read (cut short by an earlier version's kill, damaged) is set aside and made anew when nothing
// in the dir depends on it; otherwise the start stops, saying what to do.
import {
  chmodSync,
  closeSync,
  existsSync,
  fsyncSync,
  linkSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs'
import { join } from 'node:path'
import { type Hex, keccak256, toHex } from 'viem'
import { newDeploymentSecret, type SandboxKeys, sandboxKeys } from '../chain/index.ts'
import { removeLeftoverTemporariesOf, temporaryPath } from '../contract/temporary-files.ts'
import { ensureWritableDir } from '../persistence/index.ts'
import type { SandboxOptions } from './options.ts'

/** The file in --state-dir that holds the deployment secret. */
export const KEYS_FILE = 'sandbox-keys.json'

interface KeysFile {
  format: 1
  secret: Hex
  /** the roles of a state dir made before the secret existed: its saved chain is owned by the published roles */
  publishedRoles?: true
  /** a secret derived from --seed (on a loopback listener): anyone who guesses the seed computes it */
  seeded?: true
}

/** The keys of this sandbox: from its state dir, else the seed (loopback only), else fresh from the CSPRNG. */
export function loadSandboxKeys(
  options: Pick<SandboxOptions, 'stateDir' | 'seed' | 'exposed'>,
  log: (message: string) => void,
): SandboxKeys {
  const seeded =
    options.seed !== undefined && !options.exposed
      ? keccak256(toHex(`request-sandbox:seed:${options.seed}`))
      : null
  if (!options.stateDir) return sandboxKeys(seeded ?? newDeploymentSecret())
  ensureWritableDir(options.stateDir)
  const path = join(options.stateDir, KEYS_FILE)
  removeLeftoverTemporariesOf(path)
  const saved = readKeysFile(path, options.stateDir, log)
  if (saved) {
    keepPrivate(path, log)
    return keysOf(saved, options, log)
  }
  // a state dir an earlier version made: its chain's tokens and proxies answer to the published roles
  const legacy =
    existsSync(join(options.stateDir, 'state.db')) || existsSync(join(options.stateDir, 'state.json'))
  const file: KeysFile = {
    format: 1,
    secret: seeded ?? newDeploymentSecret(),
    ...(legacy ? { publishedRoles: true as const } : {}),
    ...(seeded ? { seeded: true as const } : {}),
  }
  // created once, readable by the sandbox's user only: of two starts on one dir, the second reads the first's
  if (!createWhole(path, `${JSON.stringify(file)}\n`)) {
    keepPrivate(path, log)
    return keysOf(readKeysFile(path, options.stateDir, log)!, options, log)
  }
  return keysOf(file, options, log)
}

/**
 * Writes `text` to `path` atomically and only if it does not exist: a temporary file (mode 0600) written and synced,
 * then linked to its name (a link never replaces a file), then the folder synced. False when `path` already exists.
 */
function createWhole(path: string, text: string): boolean {
  const temporary = temporaryPath(path)
  const fd = openSync(temporary, 'w', 0o600)
  try {
    try {
      writeSync(fd, text)
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    try {
      linkSync(temporary, path)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'EEXIST') return false
      // a file system without hard links: renamed instead (replacing a file another start made that instant)
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error
      renameSync(temporary, path)
    }
    syncDir(join(path, '..'))
    return true
  } finally {
    rmSync(temporary, { force: true })
  }
}

/** Syncs a folder's entries to disk (a new name in it survives a power cut); a no-op where folders cannot be opened. */
function syncDir(dir: string): void {
  let fd: number
  try {
    fd = openSync(dir, 'r')
  } catch {
    return
  }
  try {
    fsyncSync(fd)
  } catch {
    // some file systems refuse fsync on a folder: the rename is as durable as they make it
  } finally {
    closeSync(fd)
  }
}

/** The keys a keys file holds, once its secret may serve this listener (see `published`, `seededSecret`). */
function keysOf(
  file: KeysFile,
  options: Pick<SandboxOptions, 'stateDir' | 'exposed'>,
  log: (message: string) => void,
): SandboxKeys {
  if (file.publishedRoles) published(options, log)
  if (file.seeded) seededSecret(options)
  return sandboxKeys(file.secret, { publishedRoles: file.publishedRoles === true })
}

/**
 * A keys file others may read (copied back from a backup, a volume mounted with other modes) is made the sandbox
 * user's alone again, and the log says so: whoever read it can sign as the sandbox's accounts.
 */
function keepPrivate(path: string, log: (message: string) => void): void {
  const mode = statSync(path).mode & 0o777
  if ((mode & 0o077) === 0) return
  try {
    chmodSync(path, 0o600)
  } catch (error) {
    throw new Error(
      `--state-dir: ${path} can be read by other users (mode ${mode.toString(8)}) and cannot be made private (${(error as Error).message}): it holds the secret the sandbox's accounts sign with`,
    )
  }
  log(
    `--state-dir: ${path} could be read by other users (mode ${mode.toString(8)}); it is 0600 again. Whoever read it can sign as the sandbox's deployer, relayer and operator: if that may have happened, start on an empty --state-dir.`,
  )
}

/**
 * The keys file, or null when there is none. One that is not a keys file (empty or cut short by a kill during an
 * earlier version's write, damaged): when nothing else is in the dir (no state, snapshot or claim was made with its
 * secret) it is renamed `sandbox-keys.json.corrupt-<time>`, logged, and null comes back (a new one is made); else the
 * start stops naming the file and what to do.
 */
function readKeysFile(path: string, dir: string, log: (message: string) => void): KeysFile | null {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw new Error(`--state-dir: ${path} cannot be read (${(error as Error).message})`)
  }
  let parsed: Partial<KeysFile>
  try {
    parsed = JSON.parse(text) as Partial<KeysFile>
  } catch {
    parsed = {}
  }
  if (parsed.format === 1 && typeof parsed.secret === 'string' && /^0x[0-9a-f]{64}$/i.test(parsed.secret))
    return parsed as KeysFile
  const what = text.trim() === '' ? 'is empty' : `is not the sandbox's keys file (format 1, a 32-byte secret)`
  // (a volume's root may hold lost+found)
  const others = readdirSync(dir).filter(
    (name) => name !== KEYS_FILE && !name.startsWith(`${KEYS_FILE}.`) && name !== 'lost+found',
  )
  if (others.length === 0) {
    const aside = `${path}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`
    renameSync(path, aside)
    log(
      `--state-dir: ${path} ${what} (a start killed while writing it?) and nothing in ${dir} was made with it: kept as ${aside}, and the sandbox starts with new keys`,
    )
    return null
  }
  throw new Error(
    `--state-dir: ${path} ${what}, and ${dir} holds state made with its secret (${others.slice(0, 3).join(', ')}${others.length > 3 ? ', ...' : ''}): put sandbox-keys.json back from a copy (a backup of the state dir), or start with an empty --state-dir (moving this one away) to begin afresh`,
  )
}

/**
 * A state dir whose chain answers to the published role keys: logged on a loopback listener (only this machine signs
 * there); refused on a shared one, where any stranger could sign as the sandbox's deployer, relayer and operator.
 */
function published(
  options: Pick<SandboxOptions, 'stateDir' | 'exposed'>,
  log: (message: string) => void,
): void {
  const why = `--state-dir ${options.stateDir} was made by an earlier version: its chain belongs to the sandbox's published role keys, which anyone can sign with through /rpc`
  if (options.exposed)
    throw new Error(
      `${why}. A shared listener refuses it: start the shared demo with an empty --state-dir (secret keys), or serve this one on a loopback listener (--host 127.0.0.1).`,
    )
  log(`${why}. Start a shared demo with an empty --state-dir to get secret ones.`)
}

/**
 * A state dir whose secret was derived from --seed (made on a loopback listener): refused on a shared one, where anyone
 * who guesses the seed (a small number, as a rule) could sign as the sandbox's roles and wallets.
 */
function seededSecret(options: Pick<SandboxOptions, 'stateDir' | 'exposed'>): void {
  if (options.exposed)
    throw new Error(
      `--state-dir ${options.stateDir} was made with --seed on a loopback listener: its keys follow from the seed, which anyone who guesses it can sign with through /rpc. A shared listener refuses it: start the shared demo with an empty --state-dir (secret keys), or serve this one on a loopback listener (--host 127.0.0.1).`,
    )
}
