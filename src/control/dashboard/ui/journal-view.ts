// The journal of API calls, events and delivery attempts (GET /__sandbox/journal), filterable, with bodies.
import { call } from './api.ts'
import { badge, field, h, json, when } from './dom.ts'
import type { Shell, View } from './view.ts'

interface Entry {
  id: string
  type: 'call' | 'event' | 'delivery'
  at: string
  scenario: string
  method?: string
  path?: string
  status?: number | null
  durationMs?: number
  event?: string
  requestBody?: unknown
  responseBody?: unknown
  payload?: unknown
  url?: string
  retryCount?: number
  outcome?: string
  fault?: string
}

function entryLine(e: Entry): (Node | string)[] {
  if (e.type === 'call')
    return [
      h('strong', {}, `${e.method} ${e.path}`),
      ' ',
      badge(String(e.status)),
      h('span', { class: 'muted' }, ` ${e.durationMs} ms${e.fault ? ` · fault ${e.fault}` : ''}`),
    ]
  if (e.type === 'event') return [h('strong', {}, e.event ?? ''), ' ', h('span', { class: 'muted' }, 'event')]
  return [
    h('strong', {}, `${e.event} → ${e.url}`),
    ' ',
    badge(e.outcome),
    h('span', { class: 'muted' }, ` retry ${e.retryCount} · ${e.status ?? 'no answer'}`),
  ]
}

/** The journal of API calls, events and deliveries, filterable, with bodies. */
export function journalView(shell: Shell): View {
  const type = h(
    'select',
    {},
    h('option', { value: '' }, 'everything'),
    ['call', 'event', 'delivery'].map((t) => h('option', { value: t }, `${t}s`)),
  )
  const path = h('input', { type: 'search', placeholder: '/v2/request', autocomplete: 'off' })
  const event = h('input', { type: 'search', placeholder: 'payment.confirmed', autocomplete: 'off' })
  const view: View = {
    title: 'Journal',
    controls: h(
      'form',
      { class: 'filters', role: 'search', onsubmit: (e: Event) => e.preventDefault() },
      field('Kind', type, 'journal-type'),
      field('Path starts with', path, 'journal-path'),
      field('Event', event, 'journal-event'),
    ),
    async load() {
      const query = new URLSearchParams({ limit: '200' })
      if (type.value) query.set('type', type.value)
      if (path.value.trim()) query.set('path', path.value.trim())
      if (event.value.trim()) query.set('event', event.value.trim())
      const { entries } = await call<{ entries: Entry[] }>('GET', `/__sandbox/journal?${query}`)
      if (entries.length === 0) return h('p', { class: 'empty' }, 'Nothing recorded matches.')
      return h(
        'ol',
        { class: 'journal' },
        entries.map((e) =>
          h(
            'li',
            { class: `entry entry-${e.type}` },
            h(
              'details',
              { 'data-key': e.id },
              h('summary', {}, when(e.at), ' ', ...entryLine(e)),
              e.type === 'call'
                ? h(
                    'div',
                    { class: 'bodies' },
                    h('div', {}, h('h4', {}, 'Request body'), json(e.requestBody)),
                    h('div', {}, h('h4', {}, 'Response body'), json(e.responseBody)),
                  )
                : json(e.type === 'event' ? e.payload : e),
            ),
          ),
        ),
      )
    },
  }
  for (const control of [type, path, event]) control.addEventListener('input', () => shell.reload())
  return view
}
