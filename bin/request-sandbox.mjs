#!/usr/bin/env node
// Runs the compiled command, dist/cli.js (one bundle: it loads 4x faster than the modules one by one).
// In a checkout (scripts/build.mjs beside us) a dist/ older than its inputs is rebuilt first (about a second; never
// when nothing changed). In an installed package dist/ comes built; should src/ be newer (an edited copy), the
// TypeScript sources run through tsx instead.
// first: before anything here or in the command can run a full garbage collection (tick-object-maps.mjs says why)
import './tick-object-maps.mjs'
import { spawn } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const root = new URL('..', import.meta.url)

// A plain start (the default network on an embedded chain) spawns anvil here, first: it boots in its own process
// while this one loads the command, and the sandbox's first chain adopts it (src/chain/anvil.ts, spawnAnvil). Killed
// at exit if nothing adopted it. Any flag or variable that changes the chain leaves it to the sandbox.
const CHAIN_FLAGS = ['--rpc-url', '--no-chain', '--networks', '--only-networks', '--help', '-h', '--version']
const CHAIN_VARIABLES = ['SANDBOX_RPC_URL', 'SANDBOX_NETWORKS', 'SANDBOX_ONLY_NETWORKS']
const args = process.argv.slice(2)
const plainStart =
  !(args[0] && !args[0].startsWith('-')) &&
  !args.some((a) => CHAIN_FLAGS.some((flag) => a === flag || a.startsWith(`${flag}=`))) &&
  !CHAIN_VARIABLES.some((name) => process.env[name])
const ANVIL_PACKAGES = {
  'linux-x64': 'linux-amd64',
  'linux-arm64': 'linux-arm64',
  'darwin-x64': 'darwin-amd64',
  'darwin-arm64': 'darwin-arm64',
}
if (plainStart) {
  try {
    const suffix = ANVIL_PACKAGES[`${process.platform}-${process.arch}`]
    const binary = join(
      dirname(createRequire(import.meta.url).resolve(`@foundry-rs/anvil-${suffix}/package.json`)),
      'bin',
      'anvil',
    )
    const chainId = 11155111 // sepolia, the default network (fixtures/networks.json)
    const child = spawn(binary, ['--chain-id', String(chainId), '--host', '127.0.0.1', '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    })
    const kill = () => child.kill('SIGKILL')
    process.on('exit', kill)
    child.on('error', () => {})
    globalThis[Symbol.for('request-sandbox:prespawned-anvil')] = {
      chainId,
      child,
      release: () => process.off('exit', kill),
    }
  } catch {
    // no anvil package for this platform: the sandbox reports it as it starts
  }
}
const compiled = new URL('dist/cli.js', root)
const buildScript = new URL('scripts/build.mjs', root)

function newestSource(dir) {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = new URL(entry.name + (entry.isDirectory() ? '/' : ''), dir)
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs)
  }
  return newest
}

let runCompiled
if (existsSync(buildScript) && existsSync(new URL('node_modules/esbuild/', root))) {
  const { build, isFresh } = await import(buildScript.href)
  if (!isFresh({ cli: true })) {
    await build({ cli: true })
    // esbuild's service process would otherwise live as long as the sandbox (and outlive a killed parent)
    await (await import('esbuild')).stop()
  }
  runCompiled = true
} else {
  const sources = new URL('src/', root)
  runCompiled =
    existsSync(compiled) && (!existsSync(sources) || statSync(compiled).mtimeMs >= newestSource(sources))
}
if (runCompiled) {
  await import(compiled.href)
} else {
  const { register } = await import('tsx/esm/api')
  register()
  await import(new URL('src/cli.ts', root).href)
}
