// The shape of a JSON answer as verify compares it: for every path ($.a.b, $.list[*].c) the JSON types seen there,
// the formats of its strings, and its string values (enum candidates; every value in an error answer).
import { formatOf, formatWithLength, isVolatile } from './formats.ts'

/** What one path of an answer holds. */
export interface PathFacts {
  types: Set<string>
  /** formats of volatile strings (ids, hashes, timestamps, amounts); other strings count as `string` */
  formats: Set<string>
  /** the non-volatile string values seen (statuses, types, messages) */
  values: Set<string>
  /** for an array path: whether any item was seen */
  hasItems: boolean
}

export type Shape = Map<string, PathFacts>

const identifier = /^[A-Za-z_$][\w$]*$/

/** The child path of `parent` for an object key. */
export function childPath(parent: string, key: string): string {
  return identifier.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`
}

function typeOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

function factsAt(shape: Shape, path: string): PathFacts {
  let facts = shape.get(path)
  if (!facts) {
    facts = { types: new Set(), formats: new Set(), values: new Set(), hasItems: false }
    shape.set(path, facts)
  }
  return facts
}

/** The shape of a parsed JSON value. */
export function shapeOf(value: unknown, path = '$', shape: Shape = new Map()): Shape {
  const facts = factsAt(shape, path)
  facts.types.add(typeOf(value))
  if (typeof value === 'string') {
    if (isVolatile(formatOf(value))) facts.formats.add(formatWithLength(value))
    else {
      facts.formats.add('string')
      facts.values.add(value)
    }
  } else if (Array.isArray(value)) {
    if (value.length > 0) facts.hasItems = true
    for (const item of value) shapeOf(item, `${path}[*]`, shape)
  } else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) shapeOf(child, childPath(path, key), shape)
  }
  return shape
}
