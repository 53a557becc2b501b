// The deployment's secret, from which the sandbox's own accounts come (src/chain/sandbox-keys.ts): kept in
// --state-dir as `sandbox-keys.json` (mode 0600), so a restart signs with the same accounts its saved chain knows;
// made from the CSPRNG at the first start, and for a sandbox without a state dir at every start. `--seed` on a
// loopback listener derives it from the seed instead (the same role addresses run after run, as ids are); a shared
// listener never does, nor serves a state dir whose secret came from a seed. Never served: no answer, page or banner
// holds it or a key derived from it.
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { type Hex, keccak256, toHex } from 'viem'
import { newDeploymentSecret, type SandboxKeys, sandboxKeys } from '../chain/index.ts'
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
  const saved = readKeysFile(path)
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
  // created once, readable by the sandbox's user only; `wx`: of two starts on one dir, the second reads the first's
  try {
    writeFileSync(path, `${JSON.stringify(file)}\n`, { mode: 0o600, flag: 'wx' })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    keepPrivate(path, log)
    return keysOf(readKeysFile(path)!, options, log)
  }
  return keysOf(file, options, log)
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

function readKeysFile(path: string): KeysFile | null {
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
  if (parsed.format !== 1 || typeof parsed.secret !== 'string' || !/^0x[0-9a-f]{64}$/i.test(parsed.secret))
    throw new Error(
      `--state-dir: ${path} is not the sandbox's keys file (format 1, a 32-byte secret): restore it from a copy, or start with an empty --state-dir`,
    )
  return parsed as KeysFile
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
