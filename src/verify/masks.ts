// `--ignore` masks: a JSON path ($.a.b, $.list[*].c, $..createdAt for any depth, * for any one key), `header <name>`
// or `status`, optionally after an operation (`GET /v2/currencies $[*].name`). A mask hides a difference at its path
// and below it.

/** A parsed mask. */
export interface Mask {
  source: string
  operation?: string
  segments: string[]
}

const operationPrefix = /^([A-Z]+ \/\S*)\s+(.+)$/

/** A path as masks write it: `$`, then `.key`, `[*]`, `["key"]`, or `..` (any depth) before a key or a bracket. */
const maskPath = /^\$(\.\.[^.[\]]+|\.\.(?=\[)|\.[^.[\]]+|\[[^\]]*\])*$/

/** The segments of a path: `$`, `.key`, `[*]`, `["key"]`; `..` (any depth) is a segment of its own. */
function segmentsOf(path: string): string[] {
  const segments: string[] = []
  for (const match of path.matchAll(/\$|\.\.|\.?[^.[\]$]+|\[[^\]]*\]/g)) {
    const segment = match[0]
    segments.push(
      segment.startsWith('.') || segment.startsWith('[') || segment === '$' ? segment : `.${segment}`,
    )
  }
  return segments
}

/** Parses a mask; throws on one that is not a JSON path, a header or `status`. */
export function parseMask(source: string): Mask {
  const text = source.trim()
  const prefixed = operationPrefix.exec(text)
  const operation = prefixed ? prefixed[1] : undefined
  const rest = prefixed ? prefixed[2]!.trim() : text
  if (/^header \S+$/i.test(rest) || rest === 'status')
    return { source, ...(operation ? { operation } : {}), segments: [rest.toLowerCase()] }
  if (!maskPath.test(rest))
    throw new Error(
      `--ignore ${JSON.stringify(source)}: a JSON path ($.field, $.list[*].field, $..field), "header <name>" or "status"`,
    )
  return { source, ...(operation ? { operation } : {}), segments: segmentsOf(rest) }
}

function segmentMatches(pattern: string, segment: string): boolean {
  if (pattern === segment) return true
  if (pattern === '.*') return segment.startsWith('.') || segment.startsWith('[')
  return false
}

/** Whether the pattern's segments match a prefix of the path's (a mask covers what lies below it). */
function matchesPrefix(pattern: string[], path: string[]): boolean {
  if (pattern.length === 0) return true
  const [head, ...rest] = pattern
  if (head === '..') {
    for (let skip = 0; skip <= path.length; skip++) if (matchesPrefix(rest, path.slice(skip))) return true
    return false
  }
  return path.length > 0 && segmentMatches(head!, path[0]!) && matchesPrefix(rest, path.slice(1))
}

/** Whether a mask hides a difference at `path` of `operation`. */
export function masks(mask: Mask, operation: string, path: string): boolean {
  if (mask.operation !== undefined && mask.operation !== operation) return false
  if (!path.startsWith('$')) return mask.segments.length === 1 && mask.segments[0] === path.toLowerCase()
  return matchesPrefix(mask.segments, segmentsOf(path))
}
