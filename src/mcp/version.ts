// The package's version, as the MCP server names itself: package.json two levels above src/mcp/, or one above dist/
// (the command's bundle).
import { readFileSync } from 'node:fs'

let known: string | undefined

export function packageVersion(): string {
  if (known) return known
  for (const path of ['../../package.json', '../package.json']) {
    try {
      const manifest = JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as {
        name?: string
        version?: string
      }
      if (manifest.name === 'request-sandbox' && manifest.version) {
        known = manifest.version
        return known
      }
    } catch {
      // not there: the other layout
    }
  }
  known = '0.0.0'
  return known
}
