// Debian's Chromium for browser tests, driven by playwright-core (which never downloads a browser). On a fresh
// machine or in CI running as root it is installed with apt-get; otherwise the test fails saying what to do.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BrowserContext, chromium } from 'playwright-core'

/** Where Debian's `chromium` package puts the browser. */
export const CHROMIUM_PATH = '/usr/bin/chromium'

/** Returns the Chromium executable, installing Debian's package first when it is missing and we are root. */
export function ensureChromium(): string {
  if (existsSync(CHROMIUM_PATH)) return CHROMIUM_PATH
  if (process.getuid?.() !== 0) {
    throw new Error(
      `Chromium is missing at ${CHROMIUM_PATH} and this user cannot install it: run "sudo apt-get update && sudo apt-get install -y chromium"`,
    )
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  try {
    execFileSync('apt-get', ['update'], { stdio: 'pipe', env, timeout: 300_000 })
    execFileSync('apt-get', ['install', '-y', 'chromium'], { stdio: 'pipe', env, timeout: 600_000 })
  } catch (error) {
    const output = (error as { stderr?: Buffer }).stderr?.toString().slice(-2000) ?? ''
    throw new Error(
      `Could not install Chromium with apt-get (needed by the browser tests): ${(error as Error).message}\n${output}`,
    )
  }
  if (!existsSync(CHROMIUM_PATH))
    throw new Error(`apt-get installed chromium but ${CHROMIUM_PATH} is still missing`)
  return CHROMIUM_PATH
}

/** A headless Chromium with a fresh profile; `close()` stops it and removes the profile. */
export async function launchChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const executablePath = ensureChromium()
  const profile = mkdtempSync(join(tmpdir(), 'request-sandbox-chromium-'))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
  return {
    context,
    async close() {
      await context.close()
      rmSync(profile, { recursive: true, force: true })
    },
  }
}
