// The dashboard's shell: the key (typed in or picked from the keys the sandbox has seen; remembered in this
// tab), the sections as hash routes, messages, and the live stream that reloads what is shown when the key's
// journal moves (an API call, an event, a delivery attempt from anywhere).
import { ApiError, call, currentKey, openStream, useAdminKey, useKey } from './api.ts'
import { chainView } from './chain-view.ts'
import { commerceView } from './commerce-view.ts'
import {
  counted,
  payersView,
  payoutsView,
  requestsView,
  requestView,
  type State,
  securePaymentsView,
} from './data-views.ts'
import { field, h } from './dom.ts'
import { journalView } from './journal-view.ts'
import { orchestratorView } from './orchestrator-view.ts'
import { scenarioView } from './scenario-view.ts'
import { type Transaction, transactionView } from './transaction-view.ts'
import type { Shell, View } from './view.ts'
import { webhooksView } from './webhooks-view.ts'

const sections: [string, string][] = [
  ['requests', 'Requests'],
  ['payouts', 'Payouts'],
  ['commerce', 'Commerce payments'],
  ['payers', 'Payers'],
  ['links', 'Payment links'],
  ['webhooks', 'Webhooks'],
  ['orchestrator', 'Orchestrator'],
  ['journal', 'Journal'],
  ['scenario', 'Scenario & clock'],
  ['chain', 'Chains & faucet'],
]

const keyInput = h('input', {
  type: 'text',
  autocomplete: 'off',
  spellcheck: 'false',
  placeholder: 'any key, e.g. my-key',
})
const seenSelect = h('select', { 'aria-label': 'Keys the sandbox has seen' })
/** shown when keys are not listed but an --admin-key exists: with it, the list of every key */
const adminInput = h('input', {
  type: 'password',
  'aria-label': 'Admin key',
  placeholder: 'admin key',
  autocomplete: 'off',
  hidden: true,
})
// neutral until a key is chosen: nothing is offline before there is something to follow
const liveBadge = h('span', { class: 'live idle', role: 'status', 'aria-live': 'polite' }, 'no key yet')
const message = h('div', { class: 'message', role: 'status', 'aria-live': 'polite' })
const nav = h(
  'nav',
  { 'aria-label': 'Sections' },
  h(
    'ul',
    {},
    sections.map(([id, label]) => h('li', {}, h('a', { href: `#${id}`, 'data-section': id }, label))),
  ),
)
const main = h('main', { id: 'main', tabindex: '-1' })

let stopStream: (() => void) | null = null
let current: { route: string; view: View; data: HTMLElement } | null = null
let reloadTimer: ReturnType<typeof setTimeout> | null = null
let loading: Promise<void> = Promise.resolve()

const shell: Shell = {
  notify(text, kind = 'ok') {
    message.className = `message ${kind}`
    message.textContent = text
  },
  reload: () => scheduleReload(0),
}

const state = () => call<State>('GET', '/__sandbox/state')

function viewOf(route: string): View {
  const [name, ...rest] = route.split('/')
  switch (name) {
    case 'request':
      return { title: 'Request', load: async () => requestView(await state(), rest[0] ?? '') }
    case 'tx':
      return {
        title: 'Transaction',
        load: async () =>
          transactionView(
            await call<Transaction>(
              'GET',
              `/__sandbox/transactions/${rest[0]}${rest[1] ? `?network=${encodeURIComponent(rest[1])}` : ''}`,
            ),
          ),
      }
    case 'payouts':
      return { title: 'Recurring payouts', load: async () => payoutsView(await state()) }
    case 'commerce':
      return { title: 'Commerce payments', load: async () => commerceView(await state()) }
    case 'payers':
      return { title: 'Payers & client IDs', load: async () => payersView(await state()) }
    case 'links':
      return { title: 'Secure payment links', load: async () => securePaymentsView(await state()) }
    case 'webhooks':
      return webhooksView(shell, async () => (await state()).webhooks)
    case 'orchestrator':
      return orchestratorView()
    case 'journal':
      return journalView(shell)
    case 'scenario':
      return scenarioView(shell)
    case 'chain':
      return chainView(shell)
    default:
      return { title: 'Requests', load: async () => requestsView(await state()) }
  }
}

/** A selector finding the same control again after a reload: a link by its target, else its `data-key`. */
function focusKey(el: Element | null, within: HTMLElement): string | null {
  if (!el || !within.contains(el)) return null
  if (el instanceof HTMLAnchorElement) return `a[href="${CSS.escape(el.getAttribute('href') ?? '')}"]`
  const keyed = el.closest('[data-key]')
  if (!keyed) return null
  const key = `[data-key="${CSS.escape(keyed.getAttribute('data-key')!)}"]`
  return el === keyed ? key : `${key} ${el.tagName.toLowerCase()}`
}

/** Replaces the data shown, keeping which details are open and where the keyboard focus was. */
function replaceData(data: HTMLElement, node: Node): void {
  const open = [...data.querySelectorAll('details[open][data-key]')].map((d) => d.getAttribute('data-key'))
  const focused = focusKey(document.activeElement, data)
  data.replaceChildren(node)
  for (const key of open)
    data.querySelector(`details[data-key="${CSS.escape(key!)}"]`)?.setAttribute('open', '')
  if (focused) (data.querySelector(focused) as HTMLElement | null)?.focus()
}

async function fill(target: NonNullable<typeof current>): Promise<void> {
  try {
    const node = await target.view.load()
    if (current === target) replaceData(target.data, node)
  } catch (error) {
    if (current !== target) return
    // a 401 that says more than "Unauthorized" (a claimable sandbox that expired) is shown as it is
    const text =
      error instanceof ApiError && error.status === 401 && error.message === 'Unauthorized'
        ? 'This key is refused by the sandbox (strict mode): type a configured key.'
        : (error as Error).message
    target.data.replaceChildren(h('p', { class: 'message error' }, text))
  }
}

function scheduleReload(delay = 120): void {
  if (reloadTimer) return
  reloadTimer = setTimeout(() => {
    reloadTimer = null
    if (current) loading = fill(current)
    void loadKeys()
  }, delay)
}

function show(): void {
  const route = decodeURIComponent(location.hash.replace(/^#/, '')) || 'requests'
  const section =
    route.split('/')[0] === 'request' || route.startsWith('tx/') ? 'requests' : route.split('/')[0]
  for (const link of nav.querySelectorAll('a')) {
    if (link.dataset.section === section) link.setAttribute('aria-current', 'page')
    else link.removeAttribute('aria-current')
  }
  if (!currentKey()) {
    current = null
    main.replaceChildren(
      h(
        'section',
        { class: 'panel' },
        h('h1', {}, 'Choose an API key'),
        h(
          'p',
          {},
          'Each API key is its own sandbox. Type the key your app uses above, or pick one the sandbox has seen.',
        ),
      ),
    )
    return
  }
  const view = viewOf(route)
  const data = h('div', { class: 'data', 'aria-busy': 'true' }, h('p', { class: 'muted' }, 'Loading…'))
  main.replaceChildren(
    h(
      'section',
      { 'aria-labelledby': 'view-title' },
      h('h1', { id: 'view-title' }, view.title),
      view.controls ?? null,
      data,
    ),
  )
  current = { route, view, data }
  loading = fill(current).then(() => data.removeAttribute('aria-busy'))
}

function chooseKey(key: string): void {
  const trimmed = key.trim()
  if (!trimmed || trimmed === currentKey()) {
    show()
    return
  }
  useKey(trimmed)
  sessionStorage.setItem('request-sandbox-key', trimmed)
  keyInput.value = trimmed
  stopStream?.()
  stopStream = openStream(
    trimmed,
    (event) => {
      if (event === 'journal') scheduleReload()
    },
    (live) => {
      liveBadge.textContent = live ? 'live' : 'offline'
      liveBadge.className = `live ${live ? 'on' : 'off'}`
    },
  )
  shell.notify(`Showing key ${trimmed}`)
  show()
  void loadKeys()
}

async function loadKeys(): Promise<void> {
  const { strict, listed, admin, keys } = await call<{
    strict: boolean
    listed: boolean
    admin: boolean
    keys: { key: string; requests: number }[]
  }>('GET', '/__sandbox/keys')
  adminInput.hidden = listed || !admin
  seenSelect.hidden = !listed || keys.length === 0
  seenSelect.replaceChildren(
    h(
      'option',
      { value: '' },
      listed
        ? `${keys.length} seen key${keys.length === 1 ? '' : 's'}`
        : strict
          ? 'strict mode'
          : 'keys not listed',
    ),
    ...keys.map((k) =>
      h('option', { value: k.key }, `${k.key} (${k.requests} ${counted(k.requests, 'requests')})`),
    ),
  )
  seenSelect.value = keys.some((k) => k.key === currentKey()) ? currentKey() : ''
  if (strict) keyInput.placeholder = 'a key given to --api-keys'
}

function start(): void {
  const form = h(
    'form',
    {
      class: 'key-form',
      onsubmit: (e: Event) => {
        e.preventDefault()
        chooseKey(keyInput.value)
      },
    },
    field('API key', keyInput, 'api-key'),
    seenSelect,
    adminInput,
    h('button', { type: 'submit' }, 'Open'),
  )
  seenSelect.addEventListener('change', () => seenSelect.value && chooseKey(seenSelect.value))
  adminInput.addEventListener('change', () => {
    useAdminKey(adminInput.value.trim())
    sessionStorage.setItem('request-sandbox-admin-key', adminInput.value.trim())
    void loadKeys()
  })
  useAdminKey(sessionStorage.getItem('request-sandbox-admin-key') ?? '')
  const header = h(
    'header',
    { class: 'top' },
    h(
      'a',
      { class: 'brand', href: '#requests' },
      h('img', { src: '__sandbox/dashboard/icon.svg', alt: '', width: '24', height: '24' }),
      h('span', {}, 'Request Sandbox'),
    ),
    form,
    liveBadge,
  )
  document.getElementById('app')!.replaceChildren(header, nav, message, main)
  window.addEventListener('hashchange', () => {
    shell.notify('')
    message.className = 'message'
    show()
  })
  const saved = sessionStorage.getItem('request-sandbox-key')
  if (saved) chooseKey(saved)
  else {
    show()
    void loadKeys().then(() => keyInput.focus())
  }
}

start()
/** For tests: resolves when the data shown is loaded. */
;(window as unknown as { dashboardIdle: () => Promise<void> }).dashboardIdle = () => loading
