// Compares the real service's answer to a call with the sandbox's answer to the same call: status, the headers
// clients read, and the body's shape (fields and their types at every path, formats of volatile values, enum values,
// and in error answers the messages themselves).
import { type PathFacts, type Shape, shapeOf } from './shape.ts'
import type { Exchange } from './types.ts'

export type DifferenceKind =
  | 'status'
  | 'header'
  | 'body'
  | 'missing-field'
  | 'extra-field'
  | 'renamed-field'
  | 'type'
  | 'format'
  | 'enum'
  | 'message'

/** One way the sandbox's answer departs from the real one: `real` and `sandbox` say what each side had there. */
export interface Difference {
  kind: DifferenceKind
  /** a JSON path of the body ($.a[*].b), or `header <name>`, or `status` */
  path: string
  real: string
  sandbox: string
}

/** Headers clients read: pagination, rate limits, where a created object is. Compared by presence. */
const readHeaders =
  /^(x-)?ratelimit(-|$)|^retry-after$|^link$|^location$|^x-total(-count)?$|^x-(pagination|page|per-page|next)/

/** At most this many distinct values at a path in both answers make it an enum (a list of names is not). */
const ENUM_MAX = 10
/** An enum-like word: one case, words joined by _ or - (pending, ERC20, REQUEST_NETWORK_PAYMENT, sepolia). */
const enumWord = /^([a-z][a-z0-9_-]*|[A-Z][A-Z0-9_-]*)$/

const listed = (values: Iterable<string>): string => [...values].sort().join(', ') || '(none)'

function mediaType(headers: Record<string, string>): string {
  return (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() || '(none)'
}

function parse(body: string): { json: true; value: unknown } | { json: false } {
  if (body.trim() === '') return { json: false }
  try {
    return { json: true, value: JSON.parse(body) }
  } catch {
    return { json: false }
  }
}

function compareHeaders(real: Exchange['response'], sandbox: Exchange['response']): Difference[] {
  const found: Difference[] = []
  if (mediaType(real.headers) !== mediaType(sandbox.headers))
    found.push({
      kind: 'header',
      path: 'header content-type',
      real: mediaType(real.headers),
      sandbox: mediaType(sandbox.headers),
    })
  const names = new Set(
    [...Object.keys(real.headers), ...Object.keys(sandbox.headers)].map((n) => n.toLowerCase()),
  )
  for (const name of [...names].sort()) {
    if (!readHeaders.test(name)) continue
    const inReal = Object.hasOwn(real.headers, name)
    const inSandbox = Object.hasOwn(sandbox.headers, name)
    if (inReal !== inSandbox)
      found.push({
        kind: 'header',
        path: `header ${name}`,
        real: inReal ? 'present' : 'absent',
        sandbox: inSandbox ? 'present' : 'absent',
      })
  }
  return found
}

/** Whether `path` lies under an array one side has no item of (nothing to compare there). */
function underEmptyArray(path: string, real: Shape, sandbox: Shape): boolean {
  let at = path.indexOf('[*]')
  while (at >= 0) {
    const array = path.slice(0, at)
    if (!real.get(array)?.hasItems || !sandbox.get(array)?.hasItems) return true
    at = path.indexOf('[*]', at + 3)
  }
  return false
}

function parentOf(path: string): string {
  const match = /^(.*?)(\.[^.[\]]+|\[[^\]]*\])$/.exec(path)
  return match ? match[1]! : ''
}

function lastKey(path: string): string {
  return path.slice(parentOf(path).length).replace(/^\./, '')
}

const setsEqual = (a: Set<string>, b: Set<string>): boolean =>
  a.size === b.size && [...a].every((x) => b.has(x))

function compareFacts(path: string, real: PathFacts, sandbox: PathFacts, error: boolean): Difference[] {
  if (!setsEqual(real.types, sandbox.types))
    return [{ kind: 'type', path, real: listed(real.types), sandbox: listed(sandbox.types) }]
  const found: Difference[] = []
  if (real.types.has('string') && !setsEqual(real.formats, sandbox.formats))
    found.push({ kind: 'format', path, real: listed(real.formats), sandbox: listed(sandbox.formats) })
  if (error) {
    if (!setsEqual(real.values, sandbox.values))
      found.push({ kind: 'message', path, real: listed(real.values), sandbox: listed(sandbox.values) })
    return found
  }
  const enumOf = (facts: PathFacts) => [...facts.values].filter((v) => enumWord.test(v))
  const realEnum = enumOf(real)
  const sandboxEnum = enumOf(sandbox)
  if (realEnum.length > ENUM_MAX || sandboxEnum.length > ENUM_MAX) return found
  const onlyReal = realEnum.filter((v) => !sandboxEnum.includes(v))
  const onlySandbox = sandboxEnum.filter((v) => !realEnum.includes(v))
  if (onlyReal.length || onlySandbox.length)
    found.push({ kind: 'enum', path, real: listed(onlyReal), sandbox: listed(onlySandbox) })
  return found
}

/** Fields only one side has; a field missing on one side and another extra under the same parent is a rename. */
function compareFields(real: Shape, sandbox: Shape): Difference[] {
  const missing = [...real.keys()].filter((p) => !sandbox.has(p) && !underEmptyArray(p, real, sandbox))
  const extra = [...sandbox.keys()].filter((p) => !real.has(p) && !underEmptyArray(p, real, sandbox))
  // only the top-most path of a missing or extra subtree
  const top = (paths: string[]) => paths.filter((p) => !paths.includes(parentOf(p)))
  const topMissing = top(missing)
  const topExtra = top(extra)
  const found: Difference[] = []
  const renamed = new Set<string>()
  for (const m of topMissing) {
    const parent = parentOf(m)
    const siblingsMissing = topMissing.filter((p) => parentOf(p) === parent)
    const siblingsExtra = topExtra.filter((p) => parentOf(p) === parent)
    if (siblingsMissing.length !== 1 || siblingsExtra.length !== 1) continue
    const e = siblingsExtra[0]!
    if (!setsEqual(real.get(m)!.types, sandbox.get(e)!.types)) continue
    renamed.add(m).add(e)
    found.push({ kind: 'renamed-field', path: m, real: lastKey(m), sandbox: lastKey(e) })
  }
  for (const m of topMissing)
    if (!renamed.has(m))
      found.push({ kind: 'missing-field', path: m, real: listed(real.get(m)!.types), sandbox: 'absent' })
  for (const e of topExtra)
    if (!renamed.has(e))
      found.push({ kind: 'extra-field', path: e, real: 'absent', sandbox: listed(sandbox.get(e)!.types) })
  return found
}

function compareBodies(
  real: Exchange['response'],
  sandbox: Exchange['response'],
  error: boolean,
): Difference[] {
  const r = parse(real.body)
  const s = parse(sandbox.body)
  if (!r.json || !s.json) {
    const kind = (x: typeof r, body: string) => (x.json ? 'JSON' : body.trim() === '' ? 'empty' : 'not JSON')
    const realKind = kind(r, real.body)
    const sandboxKind = kind(s, sandbox.body)
    return realKind === sandboxKind ? [] : [{ kind: 'body', path: '$', real: realKind, sandbox: sandboxKind }]
  }
  const realShape = shapeOf(r.value)
  const sandboxShape = shapeOf(s.value)
  const found = compareFields(realShape, sandboxShape)
  for (const [path, facts] of realShape) {
    const other = sandboxShape.get(path)
    if (!other || underEmptyArray(path, realShape, sandboxShape)) continue
    found.push(...compareFacts(path, facts, other, error))
  }
  return found
}

/** Short words of an answer for the report: its status and message (`404 Request not found`). */
export function summary(response: Exchange['response']): string {
  const parsed = parse(response.body)
  const message =
    parsed.json && parsed.value !== null && typeof parsed.value === 'object' && 'message' in parsed.value
      ? (parsed.value as { message: unknown }).message
      : undefined
  return typeof message === 'string' ? `${response.status} ${message}` : String(response.status)
}

/**
 * The differences between the real answer and the sandbox's. A different status is the one difference reported (the
 * bodies of different outcomes have nothing to compare); otherwise headers, then the body.
 */
export function compareResponses(real: Exchange['response'], sandbox: Exchange['response']): Difference[] {
  if (real.status !== sandbox.status)
    return [{ kind: 'status', path: 'status', real: summary(real), sandbox: summary(sandbox) }]
  return [...compareHeaders(real, sandbox), ...compareBodies(real, sandbox, real.status >= 400)]
}
