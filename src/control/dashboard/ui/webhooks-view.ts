// Webhooks and every delivery attempt, with a redeliver button (POST /__sandbox/webhooks/{id}/redeliver).
import { call } from './api.ts'
import { badge, h, json, table, when } from './dom.ts'
import { act, type Shell, type View } from './view.ts'

interface Delivery {
  id: string
  webhookId: string
  url: string
  event: string
  test: boolean
  state: string
  attempts: {
    retryCount: number
    at: string
    status: number | null
    error: string | null
    durationMs: number
    response?: { headers: Record<string, string>; body: string }
  }[]
  payload: unknown
  chaos?: string
}

/** Webhooks and every delivery attempt, with a redeliver button per delivery. */
export function webhooksView(
  shell: Shell,
  webhooks: () => Promise<{ id: string; url: string; isActive: boolean }[]>,
): View {
  return {
    title: 'Webhooks',
    async load() {
      const [hooks, deliveries] = await Promise.all([
        webhooks(),
        call<Delivery[]>('GET', '/__sandbox/webhooks/deliveries'),
      ])
      return h(
        'div',
        { class: 'stack' },
        table(
          'Webhooks',
          ['Id', 'URL', 'Active'],
          hooks.map((w) => [h('code', {}, w.id), w.url, w.isActive ? 'yes' : 'no']),
          'No webhooks: POST /v2/webhook registers one.',
        ),
        h('h2', {}, 'Deliveries'),
        deliveries.length === 0
          ? h('p', { class: 'empty' }, 'No deliveries yet.')
          : deliveries.map((d) =>
              h(
                'article',
                { class: 'card delivery', 'data-delivery-id': d.id },
                h(
                  'div',
                  { class: 'row' },
                  h(
                    'h3',
                    {},
                    d.event,
                    d.test ? ' (test)' : '',
                    ' ',
                    badge(d.state),
                    d.chaos ? ' ' : '',
                    d.chaos ? badge(`chaos: ${d.chaos}`) : '',
                  ),
                  h(
                    'button',
                    {
                      type: 'button',
                      'data-key': `redeliver-${d.id}`,
                      'aria-label': `Redeliver ${d.event} delivery ${d.id}`,
                      onclick: () =>
                        act(shell, async () => {
                          await call('POST', `/__sandbox/webhooks/${encodeURIComponent(d.id)}/redeliver`)
                          return `Delivery ${d.id} sent again`
                        }),
                    },
                    'Redeliver',
                  ),
                ),
                h(
                  'p',
                  { class: 'muted' },
                  'to ',
                  h('code', { class: 'wrap' }, d.url),
                  ' · delivery ',
                  h('code', {}, d.id),
                ),
                table(
                  `Attempts of ${d.id}`,
                  ['Retry', 'Time', 'Answer', 'Receiver said', 'Error', 'Duration'],
                  d.attempts.map((a) => [
                    String(a.retryCount),
                    when(a.at),
                    a.status === null ? badge('no answer') : badge(String(a.status)),
                    a.response
                      ? h('code', { class: 'wrap' }, a.response.body.slice(0, 200) || '(empty body)')
                      : '—',
                    a.error ?? '—',
                    `${a.durationMs} ms`,
                  ]),
                  'Not attempted yet.',
                ),
                h('details', { 'data-key': `body-${d.id}` }, h('summary', {}, 'Body'), json(d.payload)),
              ),
            ),
      )
    },
  }
}
