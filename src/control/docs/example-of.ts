// An example built from a JSON Schema: its own example, else one from its properties' examples. The reference
// build (scripts/build-reference.ts) and /openapi.json (for answers the documents show no example of) use it.

type Schema = Record<string, unknown>

/** An example built from a schema: its own example, else its properties' examples (undefined when none). */
export function exampleOf(schema: unknown, depth = 0): unknown {
  if (!schema || typeof schema !== 'object' || depth > 8) return undefined
  const s = schema as Schema
  if (s.example !== undefined) return s.example
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0]
  if (s.default !== undefined) return s.default
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0]
  for (const key of ['oneOf', 'anyOf', 'allOf']) {
    const list = s[key]
    if (Array.isArray(list)) {
      if (key === 'allOf') {
        const parts = list.map((part) => exampleOf(part, depth + 1)).filter((x) => x && typeof x === 'object')
        if (parts.length) return Object.assign({}, ...parts)
      }
      for (const part of list) {
        const x = exampleOf(part, depth + 1)
        if (x !== undefined) return x
      }
    }
  }
  if (s.type === 'array' || s.items) {
    const item = exampleOf(s.items, depth + 1)
    return item === undefined ? [] : [item]
  }
  if (s.type === 'object' || s.properties) {
    const result: Record<string, unknown> = {}
    for (const [name, property] of Object.entries((s.properties ?? {}) as Schema)) {
      const x = exampleOf(property, depth + 1)
      if (x !== undefined) result[name] = x
    }
    return result
  }
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type
  if (type === 'string') return s.format === 'date-time' ? '2025-01-01T00:00:00.000Z' : 'string'
  if (type === 'integer' || type === 'number') return s.minimum ?? 0
  if (type === 'boolean') return true
  return undefined
}
