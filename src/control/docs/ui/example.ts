// A starting body for the try-it editor, made from an operation's JSON Schema: required fields only, each with
// its example, default, first enum value or a placeholder of its type. A start to edit, not a valid call.

type Schema = Record<string, unknown>

/** An example value of a JSON Schema (depth-limited). */
export function exampleOf(schema: Schema | undefined, depth = 0): unknown {
  if (!schema || depth > 6) return null
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0]
  if (schema.default !== undefined) return schema.default
  if (schema.const !== undefined) return schema.const
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0]
  const union = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined
  if (Array.isArray(union) && union.length)
    return exampleOf(union.find((s) => s.type !== 'null') ?? union[0], depth + 1)
  if (Array.isArray(schema.allOf) && schema.allOf.length)
    return exampleOf(schema.allOf[0] as Schema, depth + 1)
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type
  switch (type) {
    case 'object': {
      const props = (schema.properties ?? {}) as Record<string, Schema>
      const required = new Set((schema.required ?? []) as string[])
      const out: Record<string, unknown> = {}
      for (const [name, prop] of Object.entries(props))
        if (required.has(name)) out[name] = exampleOf(prop, depth + 1)
      return out
    }
    case 'array':
      return schema.minItems ? [exampleOf(schema.items as Schema, depth + 1)] : []
    case 'string':
      return schema.format === 'date-time' ? new Date().toISOString() : ''
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 0
    case 'boolean':
      return false
    default:
      return null
  }
}
