// The docs page: reads openapi.json (relative, so the host the browser used), lists its operations grouped by
// tag, and tries any of them against this sandbox with the API key typed at the top (kept in sessionStorage, as
// the dashboard keeps it). Elements are built from data, never from HTML strings.
import { h } from '../../dashboard/ui/dom.ts'
import { tryItStart } from './try-start.ts'

// biome-ignore lint/suspicious/noExplicitAny: the document is read as untyped JSON
type Json = Record<string, any>

interface Operation {
  method: string
  path: string
  op: Json
}

const KEY_STORAGE = 'request-sandbox-key'
const keyInput = h('input', {
  type: 'text',
  id: 'docs-key',
  autocomplete: 'off',
  spellcheck: 'false',
  placeholder: 'any key, e.g. my-key',
})

const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-')

function field(label: string, control: HTMLElement, id: string, hint?: string): HTMLElement {
  control.id = id
  return h(
    'div',
    { class: 'field' },
    h('label', { for: id }, label),
    control,
    hint ? h('small', { class: 'muted' }, hint) : null,
  )
}

function schemaText(schema: unknown): string {
  return JSON.stringify(schema ?? {}, null, 2)
}

/** A schema's type in words: `string`, `array of object`, `"a" | "b"`. */
function typeOf(schema: Json): string {
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ')
  const union = (schema.oneOf ?? schema.anyOf) as Json[] | undefined
  if (union) return union.map(typeOf).join(' or ')
  const type = Array.isArray(schema.type) ? schema.type.join(' or ') : (schema.type as string | undefined)
  if (type === 'array') return `array of ${typeOf((schema.items ?? {}) as Json)}`
  return type ?? (schema.properties ? 'object' : 'any')
}

/** A schema as a table people read: one row per field (nested fields dotted), type, required, description. */
function schemaTable(schema: Json, caption: string): HTMLElement {
  const rows: HTMLElement[] = []
  const walk = (s: Json, prefix: string, depth: number) => {
    const target = s.type === 'array' && s.items ? (s.items as Json) : s
    const required = new Set((target.required ?? []) as string[])
    for (const [name, prop] of Object.entries((target.properties ?? {}) as Record<string, Json>)) {
      const field = `${prefix}${name}${s.type === 'array' ? '[]' : ''}`
      rows.push(
        h(
          'tr',
          {},
          h('td', {}, h('code', {}, field)),
          h('td', {}, typeOf(prop)),
          h('td', {}, required.has(name) ? 'required' : ''),
          h('td', {}, (prop.description as string | undefined) ?? ''),
        ),
      )
      if (depth < 2) walk(prop, `${field}.`, depth + 1)
    }
  }
  walk(schema, '', 0)
  if (rows.length === 0) return h('p', { class: 'muted' }, `${caption}: ${typeOf(schema)}`)
  return h(
    'table',
    { class: 'schema' },
    h('caption', {}, caption),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ['Field', 'Type', '', 'Description'].map((t) => h('th', {}, t)),
      ),
    ),
    h('tbody', {}, rows),
  )
}

/** An answer's schema and example, folded. */
function answerDetails(code: string, answer: Json): HTMLElement | null {
  const media = (answer.content as Json | undefined)?.['application/json'] as Json | undefined
  if (!media || code[0] !== '2') return null
  return h(
    'details',
    { class: 'answer-doc' },
    h('summary', {}, `${code} answer: fields and example`),
    media.schema ? schemaTable(media.schema as Json, `${code} answer`) : null,
    media.example !== undefined ? h('pre', { class: 'json' }, schemaText(media.example)) : null,
  )
}

/** The try-it form of one operation: its parameters, a body editor, and the answer. */
function tryIt({ method, path, op }: Operation): HTMLElement {
  const id = op.operationId as string
  const params = ((op.parameters ?? []) as Json[]).filter((p) => !p.$ref && p.in !== 'header')
  const start = tryItStart(op, method)
  const media = op.requestBody?.content?.['application/json']
  const inputs = params.map((p) => {
    const input = h('input', { type: 'text', autocomplete: 'off', spellcheck: 'false', required: p.required })
    // path and required query parameters start filled (an example, else a placeholder id): the form sends
    // as it opens
    input.value = (p.in === 'path' ? start.path[p.name] : start.query[p.name]) ?? ''
    return { p, input }
  })
  const scenario = h('input', { type: 'text', autocomplete: 'off', placeholder: 'default' })
  // the document's example (the service's own, or the sandbox's where it differs), else one from the schema
  const body =
    start.body !== null ? h('textarea', { rows: 8, spellcheck: 'false', class: 'mono' }, start.body) : null
  const status = h('p', { class: 'answer-status', role: 'status', 'aria-live': 'polite' })
  const answer = h('pre', { class: 'json answer', tabindex: '0', hidden: true })
  const send = async (event: Event) => {
    event.preventDefault()
    let url = path
    const query = new URLSearchParams()
    for (const { p, input } of inputs) {
      const value = input.value.trim()
      if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(value))
      else if (value) query.set(p.name, value)
    }
    const headers: Record<string, string> = {}
    const key = keyInput.value.trim()
    if (key && (op.security ?? []).length) headers['x-api-key'] = key
    if (scenario.value.trim()) headers['x-sandbox-scenario'] = scenario.value.trim()
    if (body) headers['content-type'] = 'application/json'
    const target = `${url.replace(/^\//, '')}${query.size ? `?${query}` : ''}`
    status.textContent = `${method.toUpperCase()} /${target} …`
    const started = performance.now()
    try {
      const response = await fetch(target, {
        method: method.toUpperCase(),
        headers,
        body: body ? body.value : null,
      })
      const text = await response.text()
      const ms = Math.round(performance.now() - started)
      status.textContent = `${response.status} ${response.statusText} · ${ms} ms`
      status.className = `answer-status ${response.ok ? 'ok' : 'error'}`
      let shown = text
      try {
        shown = JSON.stringify(JSON.parse(text), null, 2)
      } catch {
        // not JSON: shown as sent
      }
      answer.textContent = shown || '(no body)'
      answer.hidden = false
    } catch (error) {
      status.textContent = `Could not reach the sandbox: ${(error as Error).message}`
      status.className = 'answer-status error'
    }
  }
  return h(
    'form',
    { class: 'try', 'aria-label': `Try ${method.toUpperCase()} ${path}`, onsubmit: send },
    h('h4', {}, 'Try it'),
    h(
      'div',
      { class: 'inline' },
      inputs.map(({ p, input }) =>
        field(
          `${p.name}${p.required ? ' *' : ''}`,
          input,
          `${id}-${p.in}-${p.name}`,
          p.in === 'path' ? 'path' : 'query',
        ),
      ),
      (op.security ?? []).length ? field('x-sandbox-scenario', scenario, `${id}-scenario`) : null,
    ),
    body
      ? h(
          'div',
          { class: 'field-body' },
          field('Body (JSON)', body, `${id}-body`),
          // where the sandbox starts from its own example rather than the document's: why
          media?.['x-sandbox-example']
            ? h('p', { class: 'muted sandbox-example' }, `Sandbox example: ${media['x-sandbox-example']}`)
            : null,
        )
      : null,
    h('button', { type: 'submit' }, `Send ${method.toUpperCase()}`),
    status,
    answer,
  )
}

function operationView(entry: Operation, components: Json): HTMLElement {
  const { method, path, op } = entry
  const params = ((op.parameters ?? []) as Json[]).filter((p) => !p.$ref)
  // the sandbox's own headers, by the names a caller sends
  const shared = ((op.parameters ?? []) as Json[])
    .filter((p) => p.$ref)
    .map((p) => components.parameters?.[String(p.$ref).split('/').pop()!]?.name ?? p.$ref)
  const schemes = ((op.security ?? []) as Json[]).flatMap((s) => Object.keys(s))
  const bodySchema = op.requestBody?.content?.['application/json']?.schema
  return h(
    'details',
    { class: 'op', id: `op-${op.operationId}` },
    h(
      'summary',
      {},
      h('span', { class: `method method-${method}` }, method.toUpperCase()),
      h('code', { class: 'op-path' }, path),
      h('span', { class: 'op-summary' }, op.summary ?? ''),
    ),
    h(
      'div',
      { class: 'op-body' },
      op.description
        ? h(
            'div',
            { class: 'op-description' },
            (op.description as string).split(/\n{2,}/).map((para) => h('p', {}, para)),
          )
        : null,
      op['x-sandbox-note'] ? h('p', { class: 'muted' }, `In the sandbox: ${op['x-sandbox-note']}`) : null,
      h(
        'p',
        { class: 'muted' },
        schemes.length ? `Credentials: ${schemes.join(' or ')}` : 'No credential needed',
      ),
      params.length
        ? h(
            'ul',
            { class: 'params' },
            params.map((p) =>
              h(
                'li',
                {},
                h('code', {}, p.name),
                ` ${p.in}${p.required ? ', required' : ''}`,
                p.description ? ` — ${p.description}` : '',
              ),
            ),
          )
        : null,
      shared.length ? h('p', { class: 'muted' }, `Sandbox headers: ${shared.join(', ')}`) : null,
      bodySchema
        ? h('details', {}, h('summary', {}, 'Body fields'), schemaTable(bodySchema as Json, 'Body'))
        : null,
      h(
        'ul',
        { class: 'statuses', 'aria-label': 'Responses' },
        Object.entries(op.responses as Json).map(([code, r]) =>
          h(
            'li',
            {},
            h('span', { class: `code code-${code[0]}` }, code),
            ` ${(r as Json).description ?? ''}`,
            answerDetails(code, r as Json),
          ),
        ),
      ),
      tryIt(entry),
    ),
  )
}

async function start(): Promise<void> {
  keyInput.value = sessionStorage.getItem(KEY_STORAGE) ?? ''
  keyInput.addEventListener('change', () => sessionStorage.setItem(KEY_STORAGE, keyInput.value.trim()))
  const main = h('main', { id: 'main', tabindex: '-1' }, h('p', { class: 'muted' }, 'Loading openapi.json…'))
  const nav = h('nav', { class: 'tags', 'aria-label': 'Groups' })
  const top = h(
    'header',
    { class: 'top' },
    h(
      'a',
      { class: 'brand', href: './' },
      h('img', { src: '__sandbox/dashboard/icon.svg', alt: '', width: '24', height: '24' }),
      h('span', {}, 'Request Sandbox API'),
    ),
    h('div', { class: 'key-form' }, field('API key', keyInput, 'docs-key')),
    h('a', { class: 'top-link', href: 'openapi.json' }, 'openapi.json'),
    h('a', { class: 'top-link', href: 'openapi.yaml' }, 'openapi.yaml'),
    h('a', { class: 'top-link', href: './' }, 'Dashboard'),
  )
  document.getElementById('app')!.replaceChildren(top, h('div', { class: 'docs' }, nav, main))
  const response = await fetch('openapi.json')
  const doc = (await response.json()) as Json
  const byTag = new Map<string, Operation[]>()
  for (const [path, item] of Object.entries(doc.paths as Json))
    for (const [method, op] of Object.entries(item as Json)) {
      const tag = (op as Json).tags?.[0] ?? 'Other'
      if (!byTag.has(tag)) byTag.set(tag, [])
      byTag.get(tag)!.push({ method, path, op: op as Json })
    }
  const tags = ((doc.tags ?? []) as Json[]).map((t) => t.name as string).filter((t) => byTag.has(t))
  nav.replaceChildren(
    h(
      'ul',
      {},
      tags.map((tag) =>
        h('li', {}, h('a', { href: `#tag-${slug(tag)}` }, tag, h('small', {}, ` ${byTag.get(tag)!.length}`))),
      ),
    ),
  )
  main.replaceChildren(
    h('h1', {}, doc.info.title, ' ', h('small', { class: 'muted' }, doc.info.version)),
    h('p', {}, doc.info.description),
    ...tags.map((tag) =>
      h(
        'section',
        { id: `tag-${slug(tag)}`, 'aria-labelledby': `h-${slug(tag)}` },
        h('h2', { id: `h-${slug(tag)}` }, tag),
        byTag.get(tag)!.map((op) => operationView(op, doc.components ?? {})),
      ),
    ),
  )
  const target = location.hash ? document.getElementById(location.hash.slice(1)) : null
  if (target instanceof HTMLDetailsElement) target.open = true
  target?.scrollIntoView()
}

start().catch((error: Error) => {
  document
    .getElementById('app')!
    .replaceChildren(h('p', { class: 'message error' }, `Could not read openapi.json: ${error.message}`))
})
