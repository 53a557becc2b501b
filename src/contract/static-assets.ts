// Files a page of the sandbox serves from a folder beside its module (the dashboard's, the Secure Payment Page's):
// a fixed list of names with their content types, each read once on first use.
import { readFileSync } from 'node:fs'

/** One served file. */
export interface StaticAsset {
  text: string
  contentType: string
}

/**
 * A lookup of the files in `folder` (a URL ending in `/`, built by the caller from its own `import.meta.url`, so
 * it resolves from src/ and from the bundle in dist/ alike). Only the listed names are files: `toString`,
 * `constructor`… are not (the OpenAPI fuzz asked for them).
 */
export function staticAssets(
  folder: URL,
  types: Record<string, string>,
): (name: string) => StaticAsset | null {
  const cache = new Map<string, string>()
  return (name) => {
    const contentType = Object.hasOwn(types, name) ? types[name] : undefined
    if (!contentType) return null
    let text = cache.get(name)
    if (text === undefined) {
      text = readFileSync(new URL(name, folder), 'utf8')
      cache.set(name, text)
    }
    return { text, contentType }
  }
}
