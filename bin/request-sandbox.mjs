#!/usr/bin/env node
// Runs the TypeScript sources directly (tsx is a runtime dependency): no build step, no install script.
import { register } from 'tsx/esm/api'

register()
await import('../src/cli.ts')
