// DOM helpers of the dashboard: elements built from data (never HTML strings), and the formats it shows.

type Child = Node | string | number | null | undefined | false
type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>

/** An element with attributes (`on…` ones are listeners) and children; text is always text, never HTML. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag)
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue
    if (typeof value === 'function') el.addEventListener(name.slice(2), value)
    else if (value === true) el.setAttribute(name, '')
    else el.setAttribute(name, String(value))
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue
    el.append(typeof child === 'string' || typeof child === 'number' ? String(child) : child)
  }
  return el
}

/** `0x1234…abcd`, with the whole value in a title. */
export function short(value: string | null | undefined, keep = 6): HTMLElement | string {
  if (!value) return '—'
  if (value.length <= keep * 2 + 3) return h('code', {}, value)
  return h('code', { title: value }, `${value.slice(0, keep)}…${value.slice(-4)}`)
}

/** A status as a coloured badge. */
export function badge(status: string | null | undefined): HTMLElement {
  const value = status ?? 'none'
  return h(
    'span',
    { class: `badge badge-${value.replace(/[^a-z_]/gi, '')}`, 'data-status': value },
    value.replace(/_/g, ' '),
  )
}

/** A date in the reader's locale, the ISO value in a title. */
export function when(iso: string | null | undefined): HTMLElement | string {
  if (!iso) return '—'
  const date = new Date(iso)
  return h(
    'time',
    { datetime: iso, title: iso },
    date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' }),
  )
}

/** A table with a caption for screen readers; cells are labelled so rows stack on a phone. */
export function table(caption: string, headers: string[], rows: Child[][], empty: string): HTMLElement {
  if (rows.length === 0) return h('p', { class: 'empty' }, empty)
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      {},
      h('caption', { class: 'sr-only' }, caption),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          headers.map((name) => h('th', { scope: 'col' }, name)),
        ),
      ),
      h(
        'tbody',
        {},
        rows.map((cells) =>
          h(
            'tr',
            {},
            cells.map((cell, i) => h('td', { 'data-label': headers[i] }, cell)),
          ),
        ),
      ),
    ),
  )
}

/** A labelled field of a form. */
export function field(label: string, control: HTMLElement, id: string): HTMLElement {
  control.id = id
  return h('div', { class: 'field' }, h('label', { for: id }, label), control)
}

/** A term that is a field name (`requestId`): shown as written, since capitals would run its words together. */
const isIdentifier = (term: string) => /^[a-z][A-Za-z0-9_]*[A-Z][A-Za-z0-9_]*$/.test(term)

/** A definition list of label/value pairs. */
export function facts(pairs: [string, Child | Child[]][]): HTMLElement {
  return h(
    'dl',
    { class: 'facts' },
    pairs.map(([term, value]) =>
      h('div', {}, h('dt', isIdentifier(term) ? { class: 'ident' } : {}, term), h('dd', {}, value as Child)),
    ),
  )
}

/** Pretty JSON in a pre block. */
export function json(value: unknown): HTMLElement {
  return h('pre', { class: 'json' }, JSON.stringify(value, null, 2))
}
