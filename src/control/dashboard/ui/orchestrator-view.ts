// An orchestrator's side of the sandbox (its key is the dashboard's key): the client IDs it linked, its fee
// configs and a preview of its branding rows as the Secure Payment Page would theme a card
// (GET /__sandbox/orchestrator).
import { call } from './api.ts'
import { badge, facts, h, short, table, when } from './dom.ts'
import type { View } from './view.ts'

interface Branding {
  id: string
  clientIdId?: string
  logoPath?: string
  pageBackgroundColor?: string
  cardBackgroundColor?: string
  primaryActionColor?: string
  primaryTextColor?: string
  secondaryTextColor?: string
  termsPath?: string
  privacyPath?: string
  displayRequestBranding: boolean
}
interface Overview {
  orchestratorId: string
  links: {
    clientId: string
    linkId: string
    status: string
    label: string | null
    intentId: string | null
    kyt: { providers: { provider: string; policyId?: string }[] } | null
    platformKyt: string | null
    destinationId: string | null
    createdAt: string
  }[]
  intents: { id: string; clientIdName: string; externalId: string | null; used: boolean; expiresAt: string }[]
  feeConfigs: {
    id: string
    clientId: string | null
    flow: string
    feeBearer: string
    bps: number
    usdCap: string | null
    evmRecipientAddress: string | null
    tronRecipientAddress: string | null
    status: string
  }[]
  branding: Branding[]
  webhooks: number
}

/** The Secure Payment Page's defaults (whitelabel-branding.mdx), for fields a row leaves unset. */
const DEFAULTS: Record<string, string> = {
  pageBackgroundColor: '#f3f4f6',
  cardBackgroundColor: '#ffffff',
  primaryActionColor: '#00d395',
  primaryTextColor: '#475569',
  secondaryTextColor: '#94a3b8',
}

/** A small card themed by one branding row (colours set through the CSSOM, never inline HTML). */
function preview(row: Branding): HTMLElement {
  const color = (field: keyof Branding) => (row[field] as string | undefined) ?? DEFAULTS[field]!
  const button = h('span', { class: 'brand-preview-button' }, 'Pay')
  const card = h(
    'div',
    { class: 'brand-preview-card' },
    row.logoPath ? h('img', { src: `.${row.logoPath}`, alt: '', class: 'brand-preview-logo' }) : null,
    h('strong', { class: 'brand-preview-amount' }, '25.00 USDC'),
    h('span', { class: 'brand-preview-label' }, 'Pay to 0x6923…C7D7'),
    button,
    h(
      'small',
      { class: 'brand-preview-label' },
      [
        row.termsPath ? 'Terms' : null,
        row.privacyPath ? 'Privacy' : null,
        row.displayRequestBranding ? 'Made easy by Request Network' : null,
      ]
        .filter(Boolean)
        .join(' · '),
    ),
  )
  const frame = h(
    'figure',
    { class: 'brand-preview', 'data-branding': row.clientIdId ?? 'orchestrator' },
    card,
    h('figcaption', {}, row.clientIdId ? `Client ${row.clientIdId}` : 'Orchestrator default'),
  )
  frame.style.setProperty('background', color('pageBackgroundColor'))
  card.style.setProperty('background', color('cardBackgroundColor'))
  card.style.setProperty('color', color('primaryTextColor'))
  button.style.setProperty('background', color('primaryActionColor'))
  for (const label of card.querySelectorAll<HTMLElement>('.brand-preview-label'))
    label.style.setProperty('color', color('secondaryTextColor'))
  return frame
}

export function orchestratorView(): View {
  return {
    title: 'Orchestrator',
    async load() {
      const o = await call<Overview>('GET', '/__sandbox/orchestrator')
      const nothing = o.links.length === 0 && o.feeConfigs.length === 0 && o.branding.length === 0
      return h(
        'div',
        { class: 'stack' },
        facts([
          ['Orchestrator id', h('code', {}, o.orchestratorId)],
          ['Webhooks', String(o.webhooks)],
        ]),
        nothing
          ? h(
              'p',
              { class: 'empty' },
              'No orchestrator state for this key. Use an orc_… key that linked client IDs (x-orchestrator-key).',
            )
          : null,
        h('h2', {}, 'Linked client IDs'),
        table(
          'Linked client IDs',
          ['Client ID', 'Label', 'Link', 'Screening', 'Destination', 'Linked'],
          o.links.map((l) => [
            h('code', { 'data-testid': 'linked-client-id' }, l.clientId),
            l.label ?? '—',
            badge(l.status),
            l.kyt
              ? l.kyt.providers.map((p) => p.provider).join(' → ')
              : l.platformKyt
                ? `platform: ${l.platformKyt}`
                : l.intentId
                  ? '—'
                  : 'direct link',
            short(l.destinationId),
            when(l.createdAt),
          ]),
          'No client ID linked yet.',
        ),
        h('h2', {}, 'Fee configs'),
        table(
          'Fee configs',
          ['Scope', 'Flow', 'Borne by', 'Rate', 'USD cap', 'Recipient', 'Status'],
          o.feeConfigs.map((c) => [
            c.clientId ? h('code', {}, c.clientId) : 'default',
            c.flow,
            c.feeBearer,
            h('span', { 'data-testid': 'fee-rate' }, `${c.bps / 100}%`),
            c.usdCap ? `$${c.usdCap}` : '—',
            short(c.evmRecipientAddress ?? c.tronRecipientAddress),
            badge(c.status),
          ]),
          'No fee config.',
        ),
        h('h2', {}, 'Branding'),
        o.branding.length === 0
          ? h('p', { class: 'empty' }, 'No branding: the Secure Payment Page shows its defaults.')
          : h('div', { class: 'brand-previews' }, o.branding.map(preview)),
        o.intents.length
          ? [
              h('h2', {}, 'Link intents'),
              table(
                'Link intents',
                ['Intent', 'Client ID name', 'External id', 'Used', 'Expires'],
                o.intents.map((i) => [
                  short(i.id),
                  i.clientIdName,
                  i.externalId ?? '—',
                  i.used ? 'yes' : 'no',
                  when(i.expiresAt),
                ]),
                '',
              ),
            ]
          : null,
      )
    },
  }
}
