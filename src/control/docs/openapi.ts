// The sandbox's own OpenAPI 3.1 document, generated from the route table: one operation per route (the
// expanded list both transports serve), parameters and bodies from the routes' zod schemas (z.toJSONSchema,
// draft 2020-12, which is OpenAPI 3.1's schema dialect), statuses from the declarations (route-facts.ts), the
// credentials as security schemes and the sandbox's own headers as shared parameters.
import { readFileSync } from 'node:fs'
import { z } from 'zod'
import { exampleOf } from './example-of.ts'
import {
  type AnyRoute,
  type DocumentedCredential,
  openApiPath,
  pathParameterNames,
  routeCredentials,
  routeStatuses,
  routeSurface,
  routeTag,
} from './route-facts.ts'
import { sandboxExamples, sandboxPathExamples } from './sandbox-examples.ts'

type Json = Record<string, unknown>

/** What fixtures/official-reference.json (scripts/build-reference.ts) holds of one official operation. */
interface OfficialOperation {
  document: string
  summary?: string
  description?: string
  parameters: Record<string, { description?: string; example?: unknown }>
  requestBody?: { description?: string; schema?: Json; example?: unknown; exampleFrom?: string }
  responses: Record<string, { description: string; schema?: Json; example?: unknown; exampleFrom?: string }>
}

let officialReference: Record<string, OfficialOperation> | null = null
/** The official documents' text for each operation, read once (the product's copy, never test/). */
function official(key: string): OfficialOperation | undefined {
  officialReference ??= (
    JSON.parse(
      readFileSync(new URL('../../../fixtures/official-reference.json', import.meta.url), 'utf8'),
    ) as { operations: Record<string, OfficialOperation> }
  ).operations
  return officialReference[key]
}

/** The first sentence of a description, as a summary where a document gives none. */
const firstSentence = (text: string) =>
  (/^[^\n]*?[.!?](?=\s|$)/.exec(text)?.[0] ?? text.split('\n')[0]!).trim()

/** The document's version of the sandbox (not the service's: the sandbox serves both v1 and v2). */
const SANDBOX_VERSION = '0.1.0'

const securitySchemes: Record<DocumentedCredential, [string, Json]> = {
  'api-key': [
    'ApiKey',
    {
      type: 'apiKey',
      in: 'header',
      name: 'x-api-key',
      description:
        'Any non-empty key (each key is its own sandbox); in strict mode (--api-keys), a configured one.',
    },
  ],
  'client-id': [
    'ClientId',
    {
      type: 'apiKey',
      in: 'header',
      name: 'x-client-id',
      description: 'A client ID from POST /v2/client-ids, with an Origin among its allowed domains.',
    },
  ],
  'orchestrator-key': [
    'OrchestratorKey',
    {
      type: 'apiKey',
      in: 'header',
      name: 'x-orchestrator-key',
      description:
        'Any orc_… key (each key is its own orchestrator); in strict mode (--orchestrator-keys), a configured one. On the payment-link routes, paired with the x-client-id it linked.',
    },
  ],
  session: [
    'Session',
    {
      type: 'http',
      scheme: 'bearer',
      description:
        'A session token from POST /__sandbox/sessions (the service issues them at dashboard login).',
    },
  ],
  cookie: [
    'CookieSession',
    { type: 'apiKey', in: 'cookie', name: 'session_token', description: 'A dashboard session cookie.' },
  ],
}

const sandboxHeaders: Record<string, Json> = {
  SandboxScenario: {
    name: 'x-sandbox-scenario',
    in: 'header',
    required: false,
    description:
      "Runs this call in the named scenario's world (GET /__sandbox/scenarios lists them); 400 for an unknown name. Without it, the key's choice (PUT /__sandbox/scenario) or the server's --scenario.",
    schema: { type: 'string' },
  },
  SandboxDelay: {
    name: 'x-sandbox-delay',
    in: 'header',
    required: false,
    description: 'Waits this many milliseconds (0 to 30000) before answering.',
    schema: { type: 'integer', minimum: 0, maximum: 30000 },
  },
  SandboxStatus: {
    name: 'x-sandbox-status',
    in: 'header',
    required: false,
    description:
      "Answers this error status instead of running the call, with the service's body for it (x-sandbox-fault names the cause).",
    schema: { type: 'integer', minimum: 400, maximum: 599 },
  },
}

const reasons: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  302: 'Found (redirect)',
  400: 'Bad request: validation failed, or an unknown x-sandbox-scenario',
  401: 'No valid credential',
  403: 'Client ID inactive, revoked, or used from an Origin it does not allow',
  404: 'Not found',
  413: 'Body larger than 1 MB',
  415: 'Body not sent as application/json',
  429: "Too many requests (a scenario's rate limit)",
  503: 'Chain unavailable',
}

/** A zod schema as a JSON Schema (2020-12) for OpenAPI 3.1; `{}` where zod cannot express it. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Json {
  try {
    const out = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Json
    delete out.$schema
    return out
  } catch {
    return {}
  }
}

function parameters(
  route: AnyRoute,
  credentials: DocumentedCredential[],
  ref: OfficialOperation | undefined,
): Json[] {
  const out = parametersOf(route, credentials)
  if (!ref) return out
  return out.map((p) => {
    const documented = typeof p.name === 'string' ? ref.parameters[`${p.in}:${p.name}`] : undefined
    if (!documented) return p
    return {
      ...p,
      ...(documented.description ? { description: documented.description } : {}),
      ...(documented.example !== undefined ? { example: documented.example } : {}),
    }
  })
}

function parametersOf(route: AnyRoute, credentials: DocumentedCredential[]): Json[] {
  const out: Json[] = []
  const paramsSchema = route.params ? jsonSchemaOf(route.params, 'input') : {}
  const pathProps = (paramsSchema.properties ?? {}) as Record<string, Json>
  const path = openApiPath(route.path)
  for (const name of pathParameterNames(route.path)) {
    // a well-formed placeholder where the schema refuses a bare one (sandbox-examples.ts)
    const example = Object.entries(sandboxPathExamples).find(
      ([key]) => key.split('@')[0] === name && path.startsWith(key.split('@')[1]!),
    )?.[1]
    out.push({
      name,
      in: 'path',
      required: true,
      schema: pathProps[name] ?? { type: 'string' },
      ...(example !== undefined ? { example, 'x-sandbox-example': true } : {}),
    })
  }
  if (route.query) {
    const query = jsonSchemaOf(route.query, 'input')
    const required = new Set((query.required ?? []) as string[])
    for (const [name, schema] of Object.entries((query.properties ?? {}) as Record<string, Json>)) {
      // `.meta({required: true})`: optional for zod because the handler answers its own error when it is missing
      const { description, required: checkedByHandler, ...rest } = schema
      out.push({
        name,
        in: 'query',
        required: required.has(name) || checkedByHandler === true,
        ...(typeof description === 'string' ? { description } : {}),
        schema: rest,
      })
    }
  }
  if (credentials.includes('client-id')) {
    out.push({
      name: 'Origin',
      in: 'header',
      required: false,
      description: 'With x-client-id: the page origin, one of the client ID’s allowed domains.',
      schema: { type: 'string' },
    })
  }
  if (credentials.length) out.push({ $ref: '#/components/parameters/SandboxScenario' })
  if (credentials.length && routeSurface(route) === 'api') {
    out.push({ $ref: '#/components/parameters/SandboxDelay' })
    out.push({ $ref: '#/components/parameters/SandboxStatus' })
  }
  return out
}

/** Where the documents give an answer no schema, the schema written from what the sandbox answers. */
const SANDBOX_SCHEMA =
  "The service's documents give no schema for this answer: this one is the sandbox's, written from what it answers (test/control/openapi-sandbox-schemas.test.ts holds its answers to it)."
/** Where the documents give an answer no example, one built from the sandbox's schema. */
const SANDBOX_EXAMPLE =
  "The service's documents give no example for this answer: the sandbox's, built from its schema."

function responses(route: AnyRoute, ref: OfficialOperation | undefined): Json {
  const out: Json = {}
  for (const status of routeStatuses(route)) {
    const documented = ref?.responses[String(status)]
    const ours = route.responses?.[status] ? jsonSchemaOf(route.responses[status], 'output') : undefined
    let content: Json | undefined
    if (status >= 400) {
      content = {
        'application/json': {
          schema: { $ref: '#/components/schemas/Error' },
          ...(documented?.example !== undefined ? { example: documented.example } : {}),
        },
      }
    } else {
      // an empty schema (`{}`: any body) says nothing: the route's own schema stands in for it
      const given =
        documented?.schema && Object.keys(documented.schema).length ? documented.schema : undefined
      const schema = given ?? ours
      // the document's example, else one from the schema (the sandbox's own where the document shows no body)
      const example = documented?.example ?? (schema ? exampleOf(schema) : undefined)
      // an official operation whose documents give no schema (or no example): the sandbox's, marked as such
      const oursStands = ref !== undefined && given === undefined && ours !== undefined
      if (schema || example !== undefined)
        content = {
          'application/json': {
            ...(schema ? { schema } : {}),
            ...(example !== undefined ? { example } : {}),
            ...(oursStands ? { 'x-sandbox-schema': SANDBOX_SCHEMA } : {}),
            ...(oursStands && documented?.example === undefined && example !== undefined
              ? { 'x-sandbox-example': SANDBOX_EXAMPLE }
              : {}),
          },
        }
    }
    out[String(status)] = {
      description: documented?.description || reasons[status] || 'See the summary',
      ...(content ? { content } : {}),
    }
  }
  if (routeSurface(route) === 'api' && routeCredentials(route).length) {
    out.default = {
      description:
        'Any status from 400 to 599 forced by x-sandbox-status or by the scenario (x-sandbox-fault).',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    }
  }
  return out
}

/** A sandbox-only note (what the sandbox does where the documents are silent) never stands as a summary. */
const SANDBOX_ADDITION = "Sandbox addition: not in the service's published documents."

function operation(route: AnyRoute): Json {
  const credentials = routeCredentials(route)
  const ref = official(`${route.method} ${openApiPath(route.path)}`)
  const summary = ref ? (ref.summary ?? firstSentence(ref.description ?? route.summary)) : route.summary
  const description = ref
    ? [ref.description ?? '', `From the service's ${ref.document} document.`].filter(Boolean).join('\n\n')
    : routeSurface(route) === 'control'
      ? `${route.summary}\n\nThe sandbox's own control API (not part of the service).`
      : `${route.summary}\n\n${SANDBOX_ADDITION}`
  const op: Json = {
    operationId: `${route.method.toLowerCase()}${route.path}`
      .replace(/:/g, 'by_')
      .replace(/[^A-Za-z0-9]+/g, '_')
      .replace(/_$/, ''),
    summary,
    description,
    tags: [routeTag(route)],
    parameters: parameters(route, credentials, ref),
    responses: responses(route, ref),
    security: credentials.map((c) => ({ [securitySchemes[c][0]]: [] })),
    ...(ref ? {} : { 'x-sandbox-addition': true }),
    // what the sandbox adds to or departs from the documents: shown apart, never as the summary
    ...(ref && route.summary && route.summary !== summary ? { 'x-sandbox-note': route.summary } : {}),
  }
  if (route.body || route.rawBody) {
    const documented = ref?.requestBody
    const schema = documented?.schema ?? (route.body ? jsonSchemaOf(route.body, 'input') : {})
    // the sandbox's own example where it refuses the document's or the schema's (marked, the reason given)
    const ours = sandboxExamples[`${route.method} ${openApiPath(route.path)}`]
    const example = ours ? ours.example : (documented?.example ?? exampleOf(schema))
    op.requestBody = {
      required: !route.rawBody,
      ...(documented?.description ? { description: documented.description } : {}),
      content: {
        'application/json': {
          schema,
          ...(example !== undefined ? { example } : {}),
          ...(ours ? { 'x-sandbox-example': ours.reason } : {}),
          ...(ours && documented?.example !== undefined ? { 'x-official-example': documented.example } : {}),
        },
      },
    }
  }
  return op
}

/** Options of buildOpenApiDocument. */
export interface OpenApiOptions {
  /** the server the document's calls go to (the base URL the caller used) */
  serverUrl?: string
}

/** The OpenAPI 3.1 document of a route table (every route, in table order, grouped by path). */
export function buildOpenApiDocument(routes: readonly AnyRoute[], options: OpenApiOptions = {}): Json {
  const paths: Record<string, Record<string, Json>> = {}
  const used = new Set<DocumentedCredential>()
  const tags: string[] = []
  for (const route of routes) {
    const path = openApiPath(route.path)
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation(route) }
    for (const c of routeCredentials(route)) used.add(c)
    const tag = routeTag(route)
    if (!tags.includes(tag)) tags.push(tag)
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Request Sandbox',
      version: SANDBOX_VERSION,
      description:
        "A stateful sandbox of the Request Network payment API (v1 and v2) on its own anvil chain, and the sandbox's own control API under /__sandbox. Each API key is its own sandbox.",
    },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
    // the service's resources first, in table order, then the sandbox's own groups
    tags: [
      ...tags.filter((t) => !t.startsWith('Sandbox')),
      ...tags.filter((t) => t.startsWith('Sandbox')),
    ].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: Object.fromEntries([...used].map((c) => securitySchemes[c])),
      parameters: sandboxHeaders,
      schemas: {
        Error: {
          type: 'object',
          description:
            "The service's error body: Nest's {statusCode, message, error}, a zod issue list, or {message, errors:[{field, message}]}.",
          properties: {
            statusCode: { type: 'integer' },
            message: {},
            error: { type: 'string' },
            errors: { type: 'array', items: { type: 'object' } },
          },
        },
      },
    },
  }
}
