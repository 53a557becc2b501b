// The placeholders of a flow's steps: `{input.payee}` and `{<step>.<field>...}`, resolved on each side from that
// side's own earlier answers (the real service's ids on the real side, the sandbox's on the sandbox side).

const placeholder = /\{([a-zA-Z][\w-]*(?:\.[\w-]+)+)\}/g
const whole = /^\{([a-zA-Z][\w-]*(?:\.[\w-]+)+)\}$/

/** A placeholder that has no value on this side (the step it reads failed or answered without the field). */
export class MissingValue extends Error {
  constructor(readonly reference: string) {
    super(`no value for {${reference}}`)
  }
}

/** What placeholders read: `input` and each earlier step's parsed JSON answer by name. */
export type Scope = Record<string, unknown>

function lookup(scope: Scope, reference: string): unknown {
  let value: unknown = scope
  for (const part of reference.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, part))
      throw new MissingValue(reference)
    value = (value as Record<string, unknown>)[part]
  }
  if (value === undefined || value === null || typeof value === 'object') throw new MissingValue(reference)
  return value
}

/** A path with its placeholders replaced (each value URL-encoded). */
export function resolvePath(template: string, scope: Scope): string {
  return template.replace(placeholder, (_, reference: string) =>
    encodeURIComponent(String(lookup(scope, reference))),
  )
}

/** A body with the placeholders of its strings replaced; a string that is one placeholder takes the value as is. */
export function resolveBody(template: unknown, scope: Scope): unknown {
  if (typeof template === 'string') {
    const only = whole.exec(template)
    if (only) return lookup(scope, only[1]!)
    return template.replace(placeholder, (_, reference: string) => String(lookup(scope, reference)))
  }
  if (Array.isArray(template)) return template.map((item) => resolveBody(item, scope))
  if (template !== null && typeof template === 'object')
    return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, resolveBody(v, scope)]))
  return template
}
