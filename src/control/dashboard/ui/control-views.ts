// The dashboard's views of the key's sandbox controls: webhook deliveries (redeliver), the journal (filters),
// scenario and clock, chains and the faucet. Every action is a call of the control API.
import { call } from './api.ts'
import { badge, facts, field, h, json, table, when } from './dom.ts'

/** What a view is: its controls (built once, kept across live refreshes) and its data (reloaded). */
export interface View {
  title: string
  controls?: HTMLElement
  load(): Promise<Node>
}

/** How views talk back to the shell: show a message, reload the data. */
export interface Shell {
  notify(message: string, kind?: 'ok' | 'error'): void
  reload(): void
}

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
  }[]
  payload: unknown
}

async function act(shell: Shell, run: () => Promise<string>): Promise<void> {
  try {
    shell.notify(await run(), 'ok')
  } catch (error) {
    shell.notify((error as Error).message, 'error')
  }
  shell.reload()
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
                  h('h3', {}, d.event, d.test ? ' (test)' : '', ' ', badge(d.state)),
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
                  ['Retry', 'Time', 'Answer', 'Error', 'Duration'],
                  d.attempts.map((a) => [
                    String(a.retryCount),
                    when(a.at),
                    a.status === null ? badge('no answer') : badge(String(a.status)),
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

/** A seeded id as a link where the dashboard has a view of it. */
function idValue(name: string, value: unknown): Node | string {
  if (typeof value !== 'string') return h('code', { class: 'wrap' }, JSON.stringify(value))
  if (/^01[0-9a-f]{64}$/.test(value))
    return h('a', { href: `#request/${value}` }, h('code', { class: 'wrap' }, value))
  if (/payout/i.test(name)) return h('a', { href: '#payouts' }, h('code', { class: 'wrap' }, value))
  if (/clientUserId|payer(Id)?$|paymentDetail/i.test(name) && !value.startsWith('0x'))
    return h('a', { href: '#payers' }, h('code', { class: 'wrap' }, value))
  return h('code', { class: 'wrap' }, value)
}

function seededIds(ids: unknown): HTMLElement {
  const entries = Object.entries((ids ?? {}) as Record<string, unknown>)
  if (entries.length === 0) return h('p', { class: 'muted' }, 'This scenario seeds nothing.')
  return facts(entries.map(([name, value]) => [name, idValue(name, value)]))
}

interface ScenarioList {
  selected: string
  scenarios: { name: string; description: string; pending?: string }[]
}

/** The key's scenario (switcher, seeded ids) and clock (advance). */
export function scenarioView(shell: Shell): View {
  const select = h('select', {})
  const amount = h('input', { type: 'number', min: '1', step: '1', value: '1', inputmode: 'numeric' })
  const unit = h(
    'select',
    {},
    [
      ['60', 'minutes'],
      ['3600', 'hours'],
      ['86400', 'days'],
    ].map(([v, l]) => h('option', { value: v!, selected: v === '86400' }, l!)),
  )
  return {
    title: 'Scenario & clock',
    controls: h(
      'div',
      { class: 'grid-2' },
      h(
        'form',
        {
          class: 'card',
          'aria-label': 'Scenario',
          onsubmit: (e: Event) => {
            e.preventDefault()
            void act(shell, async () => {
              await call('PUT', '/__sandbox/scenario', { scenario: select.value })
              return `Scenario ${select.value} selected`
            })
          },
        },
        h('h2', {}, 'Scenario'),
        field('Scenario of this key', select, 'scenario-select'),
        h('button', { type: 'submit' }, 'Switch scenario'),
      ),
      h(
        'form',
        {
          class: 'card',
          'aria-label': 'Clock',
          onsubmit: (e: Event) => {
            e.preventDefault()
            void act(shell, async () => {
              const seconds = Number(amount.value) * Number(unit.value)
              const { now } = await call<{ now: string }>('POST', '/__sandbox/clock/advance', { seconds })
              return `Clock advanced to ${new Date(now).toLocaleString()}`
            })
          },
        },
        h('h2', {}, 'Clock'),
        h(
          'div',
          { class: 'inline' },
          field('Advance by', amount, 'clock-amount'),
          field('Unit', unit, 'clock-unit'),
        ),
        h('button', { type: 'submit' }, 'Advance clock'),
      ),
    ),
    async load() {
      const [list, state, clock] = await Promise.all([
        call<ScenarioList>('GET', '/__sandbox/scenarios'),
        call<{ scenario: string; description: string; ids: unknown; rules: unknown }>(
          'GET',
          '/__sandbox/scenario',
        ),
        call<{ now: string; pending: { at: string; label: string }[] }>('GET', '/__sandbox/clock'),
      ])
      if (select.options.length !== list.scenarios.length)
        select.replaceChildren(
          ...list.scenarios.map((s) =>
            h('option', { value: s.name }, s.pending ? `${s.name} (not available)` : s.name),
          ),
        )
      if (document.activeElement !== select) select.value = list.selected
      return h(
        'div',
        { class: 'grid-2' },
        h(
          'div',
          { class: 'card' },
          h('h3', {}, state.scenario),
          h('p', {}, state.description),
          h('h4', {}, 'Seeded ids'),
          seededIds(state.ids),
          h('details', { 'data-key': 'rules' }, h('summary', {}, 'Rules'), json(state.rules)),
        ),
        h(
          'div',
          { class: 'card' },
          h('h3', {}, 'Now: ', h('span', { id: 'clock-now' }, when(clock.now))),
          table(
            'Scheduled',
            ['When', 'What'],
            clock.pending.map((p) => [when(p.at), p.label]),
            'Nothing scheduled on this clock.',
          ),
        ),
      )
    },
  }
}

interface ChainInfo {
  network: string
  chainId: number
  rpcUrl: string
  tokens: Record<string, string>
  accounts: { address: string; privateKey: string }[]
  chains: { network: string; chainId: number; rpcUrl: string; tokens: Record<string, string> }[]
}

/** The live chains with their funded accounts, and the faucet. */
export function chainView(shell: Shell): View {
  const address = h('input', {
    type: 'text',
    required: true,
    pattern: '0x[0-9a-fA-F]{40}',
    placeholder: '0x…',
    autocomplete: 'off',
    spellcheck: 'false',
  })
  const currency = h('select', {})
  const amount = h('input', { type: 'text', required: true, value: '1000', inputmode: 'decimal' })
  return {
    title: 'Chains & faucet',
    controls: h(
      'form',
      {
        class: 'card',
        'aria-label': 'Faucet',
        onsubmit: (e: Event) => {
          e.preventDefault()
          void act(shell, async () => {
            const result = await call<{ balance: string; currency: string }>('POST', '/__sandbox/faucet', {
              address: address.value.trim(),
              currency: currency.value,
              amount: amount.value.trim(),
            })
            return `Balance now ${result.balance} ${result.currency}`
          })
        },
      },
      h('h2', {}, 'Faucet'),
      h(
        'div',
        { class: 'inline' },
        field('Address', address, 'faucet-address'),
        field('Currency', currency, 'faucet-currency'),
        field('Amount', amount, 'faucet-amount'),
      ),
      h('button', { type: 'submit' }, 'Fund'),
    ),
    async load() {
      const info = await call<ChainInfo>('GET', '/__sandbox/chain')
      if (currency.options.length === 0) {
        const ids = info.chains.flatMap((c) => [...Object.keys(c.tokens), `ETH-${c.network}-${c.network}`])
        currency.replaceChildren(...ids.map((id) => h('option', { value: id }, id)))
      }
      return h(
        'div',
        { class: 'stack' },
        table(
          'Chains',
          ['Network', 'Chain id', 'RPC URL', 'Tokens'],
          info.chains.map((c) => [
            c.network,
            String(c.chainId),
            h('code', { class: 'wrap rpc-url' }, c.rpcUrl),
            Object.keys(c.tokens).join(', '),
          ]),
          'No live chain.',
        ),
        h('h2', {}, 'Funded accounts'),
        h(
          'p',
          { class: 'muted' },
          'Mnemonic ',
          h('code', {}, 'test test test test test test test test test test test junk'),
          '; 10,000 ETH and 1,000,000 of every token each.',
        ),
        table(
          'Funded accounts',
          ['#', 'Address', 'Private key'],
          info.accounts.map((a, i) => [
            String(i),
            h('code', { class: 'wrap' }, a.address),
            h(
              'details',
              { 'data-key': `key-${a.address}` },
              h('summary', {}, 'show'),
              h('code', { class: 'wrap' }, a.privateKey),
            ),
          ]),
          'No accounts.',
        ),
      )
    },
  }
}
