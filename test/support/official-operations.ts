// The operations of the real service's two published OpenAPI documents (copies in test/fixtures/official/),
// flattened for comparison with the sandbox's own document: method, path, parameters and statuses.
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import type { Loose } from './loose.ts'

type Json = Record<string, Loose>

/** One parameter as both documents describe it. */
export interface DocumentedParameter {
  name: string
  in: string
  required: boolean
}

/** One operation of a document. */
export interface DocumentedOperation {
  document: string
  method: string
  path: string
  parameters: DocumentedParameter[]
  statuses: string[]
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch']
const fixtures = new URL('../fixtures/official/', import.meta.url)

/** The operations of an OpenAPI document (path-level parameters and `$ref`s to components resolved). */
export function operationsOf(document: string, doc: Json): DocumentedOperation[] {
  const resolve = (p: Json): Json =>
    typeof p.$ref === 'string'
      ? p.$ref
          .replace(/^#\//, '')
          .split('/')
          .reduce((acc: Json, key: string) => acc?.[key], doc)
      : p
  const out: DocumentedOperation[] = []
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    for (const method of HTTP_METHODS) {
      const op = (item as Json)[method]
      if (!op) continue
      const parameters = [...((item as Json).parameters ?? []), ...(op.parameters ?? [])]
        .map(resolve)
        .map((p: Json) => ({ name: p.name, in: p.in, required: Boolean(p.required) }))
      out.push({ document, method, path, parameters, statuses: Object.keys(op.responses ?? {}) })
    }
  }
  return out
}

/** Both official documents: FULL (v1 and v2, 0.8.1) and V2 (0.13.0). */
export function officialOperations(): DocumentedOperation[] {
  const full = parse(readFileSync(new URL('openapi-v1-v2.yaml', fixtures), 'utf8')) as Json
  const v2 = JSON.parse(readFileSync(new URL('openapi-v2.json', fixtures), 'utf8')) as Json
  return [...operationsOf('FULL 0.8.1', full), ...operationsOf('V2 0.13.0', v2)]
}
