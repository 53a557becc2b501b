#!/usr/bin/env node
// Runs the compiled build (dist/, made by `npm run build`) when it is up to date with src/; otherwise runs the
// TypeScript sources through tsx (a runtime dependency), so a fresh checkout works without a build step.
import { existsSync, readdirSync, statSync } from 'node:fs'

const root = new URL('..', import.meta.url)
const compiled = new URL('dist/cli.js', root)

function newestSource(dir) {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = new URL(entry.name + (entry.isDirectory() ? '/' : ''), dir)
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs)
  }
  return newest
}

const sources = new URL('src/', root)
if (existsSync(compiled) && (!existsSync(sources) || statSync(compiled).mtimeMs >= newestSource(sources))) {
  await import(compiled.href)
} else {
  const { register } = await import('tsx/esm/api')
  register()
  await import(new URL('src/cli.ts', root).href)
}
