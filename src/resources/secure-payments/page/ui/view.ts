// The page's views: DOM built from data (never HTML strings), the link's summary, the steps, the outcomes.
import type { ApiTransaction } from './wallet.ts'

export interface MulticallChild {
  payee: string | null
  amount: string | null
  context: { currency?: string; network?: string }
  feePlan: Display['feePlan']
}
/** The branding row delivered with the link (whitelabel-branding.mdx), or the neutral `{id, displayRequestBranding}`. */
export interface Branding {
  id?: string
  logoPath?: string
  pageBackgroundColor?: string
  cardBackgroundColor?: string
  primaryActionColor?: string
  primaryTextColor?: string
  secondaryTextColor?: string
  termsPath?: string
  privacyPath?: string
  displayRequestBranding?: boolean
}
export interface Display {
  paymentType: 'single' | 'batch' | 'multicall'
  branding?: Branding
  children?: MulticallChild[]
  status: string
  payee?: string
  payees?: string[]
  amount?: string
  amounts?: string[]
  paymentCurrency?: string
  paymentCurrencies?: string[]
  network: string
  reference: string | null
  redirectUrl: string | null
  redirectLabel: string | null
  feePlan: {
    payerTotalAmountUsd: string
    totalFeesUsd: string
    grossAmountUsd: string
    fees: {
      label: string
      calculatedAmountUsd: string
      percentageBps: number
      fixedAmountUsd?: string | null
    }[]
  }
}
export interface ChainInfo {
  network: string
  chainId: number
  live: boolean
  testWallet: string | null
  /** a Tron link: paid with a TronLink-style wallet whose node is the sandbox's `fullNodePath` */
  tron?: boolean
  fullNodePath?: string
}
export interface PayAnswer {
  transactions?: ApiTransaction[]
  ERC20ApprovalTransactions?: ApiTransaction[]
  batchPaymentTransaction?: ApiTransaction
  orchestratorFeeTransactions?: ApiTransaction[]
  /** EIP-712 JSON of an EIP-2612 permit the payer may sign instead of sending the approval (gasless.ts) */
  approvalPermitPayload?: string
  metadata?: {
    paymentTransactionIndex?: number
    approvalTransactionIndex?: number
    hasEnoughBalance?: boolean
    hasEnoughGas?: boolean
  }
}

const app = document.getElementById('app')!

export type Child = Node | string | null | undefined | false
export function h(tag: string, attrs: Record<string, string> = {}, ...children: Child[]): HTMLElement {
  const node = document.createElement(tag)
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v)
  for (const c of children) if (c !== null && c !== undefined && c !== false) node.append(c)
  return node
}
export const short = (a: string) => `${a.slice(0, 6)}…${a.slice(-4)}`
export const symbol = (currencyId: string) => currencyId.split('-')[0] ?? currencyId

/** The theme tokens a branding row sets, as the page's CSS variables (unset fields keep the page's defaults). */
const TOKENS: [keyof Branding, string][] = [
  ['pageBackgroundColor', '--bg'],
  ['cardBackgroundColor', '--card'],
  ['primaryActionColor', '--accent'],
  ['primaryTextColor', '--ink'],
  ['secondaryTextColor', '--muted'],
]

let brand: { branding: Branding; assets: URL } | null = null

/** Applies a link's branding: colours now, logo and legal links on every render. `assets` resolves `/branding/…`. */
export function applyBranding(branding: Branding | undefined, assets: URL) {
  const own = branding && TOKENS.some(([field]) => branding[field] !== undefined)
  const whitelabel = own || !!branding?.logoPath || !!branding?.termsPath || !!branding?.privacyPath
  if (!branding || !whitelabel) return
  brand = { branding, assets }
  const style = document.documentElement.style
  for (const [field, variable] of TOKENS) {
    const value = branding[field]
    if (typeof value === 'string' && /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(value))
      style.setProperty(variable, value)
  }
  document.documentElement.dataset.branded = 'true'
}

/** A branding path (`/branding/…`) under the sandbox's base, which may sit under a prefix. */
const assetUrl = (path: string) => new URL(path.replace(/^\//, ''), brand!.assets).href

function header(): HTMLElement {
  if (brand?.branding.logoPath)
    return h(
      'header',
      { class: 'brand' },
      h('img', {
        class: 'brand-logo',
        'data-testid': 'brand-logo',
        src: assetUrl(brand.branding.logoPath),
        alt: '',
      }),
      h('span', { class: 'badge' }, 'Secure payment'),
    )
  return h(
    'header',
    { class: 'brand' },
    h('span', { class: 'logo', 'aria-hidden': 'true' }),
    h('span', {}, 'Request Sandbox'),
    h('span', { class: 'badge' }, 'Secure payment'),
  )
}

function footer(): HTMLElement | null {
  if (!brand) return null
  const { termsPath, privacyPath, displayRequestBranding } = brand.branding
  const links = [
    termsPath ? h('a', { href: assetUrl(termsPath), 'data-testid': 'terms' }, 'Terms') : null,
    privacyPath ? h('a', { href: assetUrl(privacyPath), 'data-testid': 'privacy' }, 'Privacy') : null,
    displayRequestBranding ? h('span', { class: 'made-by' }, 'Made easy by Request Network') : null,
  ]
  return h('footer', { class: 'legal' }, ...links)
}

export function render(...children: Child[]) {
  app.replaceChildren(h('div', { class: 'card' }, header(), ...children, footer()))
}

export function message(kind: 'error' | 'done' | 'info', title: string, text: string, ...extra: Child[]) {
  render(
    h(
      'section',
      { class: `message ${kind}`, 'data-state': kind },
      h(
        'div',
        { class: 'icon', 'aria-hidden': 'true' },
        kind === 'done' ? '✓' : kind === 'error' ? '!' : 'i',
      ),
      h('h1', {}, title),
      h('p', {}, text),
      ...extra,
    ),
  )
}

export function summary(d: Display): HTMLElement {
  const rows: Child[] = []
  if (d.paymentType === 'single') {
    rows.push(
      h(
        'div',
        { class: 'amount' },
        h('span', { class: 'value', 'data-testid': 'amount' }, d.amount!),
        h('span', { class: 'currency', 'data-testid': 'currency' }, symbol(d.paymentCurrency!)),
      ),
    )
    rows.push(
      h(
        'dl',
        {},
        h('dt', {}, 'Pay to'),
        h('dd', { class: 'mono', 'data-testid': 'payee', title: d.payee! }, short(d.payee!)),
      ),
    )
  } else {
    rows.push(h('div', { class: 'amount' }, h('span', { class: 'value' }, `${d.amounts!.length} payments`)))
    rows.push(
      h(
        'ul',
        { class: 'batch' },
        ...d.payees!.map((p, i) =>
          h(
            'li',
            {},
            h('span', { class: 'mono', title: p }, short(p)),
            h('span', {}, `${d.amounts![i]} ${symbol(d.paymentCurrencies![i]!)}`),
          ),
        ),
      ),
    )
  }
  const fees = d.feePlan.fees
  rows.push(
    h(
      'dl',
      { class: 'lines' },
      h('dt', {}, 'Network'),
      h('dd', {}, d.network),
      d.reference ? h('dt', {}, 'Reference') : null,
      d.reference ? h('dd', {}, d.reference) : null,
      h('dt', {}, 'Amount'),
      h('dd', {}, `$${d.feePlan.grossAmountUsd}`),
      ...fees.flatMap((f) => [
        // a fixed fee (Tron's resource fee) has no percentage to show
        h('dt', {}, f.fixedAmountUsd ? f.label : `${f.label} (${f.percentageBps / 100}%)`),
        h('dd', { 'data-testid': 'fee' }, `$${f.calculatedAmountUsd}`),
      ]),
      fees.length === 0 ? h('dt', {}, 'Fees') : null,
      fees.length === 0 ? h('dd', { 'data-testid': 'fee' }, `$${d.feePlan.totalFeesUsd}`) : null,
      h('dt', { class: 'total' }, 'Total'),
      h('dd', { class: 'total', 'data-testid': 'total' }, `$${d.feePlan.payerTotalAmountUsd}`),
    ),
  )
  return h('section', { class: 'summary' }, ...rows)
}

export function steps(labels: string[], active: number, done: number): HTMLElement {
  return h(
    'ol',
    { class: 'steps' },
    ...labels.map((label, i) => h('li', { class: i < done ? 'done' : i === active ? 'active' : '' }, label)),
  )
}

export function transactionsOf(pay: PayAnswer): { label: string; tx: ApiTransaction; payment: boolean }[] {
  if (pay.transactions) {
    const index = pay.metadata?.paymentTransactionIndex ?? pay.transactions.length - 1
    const approval = pay.metadata?.approvalTransactionIndex
    return pay.transactions.map((tx, i) => ({
      // before the payment: the approval, then any fee the payment carries to its own address; after it, a Tron
      // link's resource-fee leg
      label:
        i === index
          ? 'Pay'
          : i > index
            ? 'Resource fee'
            : i === approval || pay.metadata?.paymentTransactionIndex === undefined
              ? 'Approve'
              : 'Pay fee',
      tx,
      payment: i === index,
    }))
  }
  return [
    ...(pay.ERC20ApprovalTransactions ?? []).map((tx) => ({ label: 'Approve', tx, payment: false })),
    ...(pay.orchestratorFeeTransactions ?? []).map((tx) => ({ label: 'Pay fee', tx, payment: false })),
    { label: 'Pay batch', tx: pay.batchPaymentTransaction!, payment: true },
  ]
}

export function confirmed(d: Display, hash: string | null) {
  const paid =
    d.paymentType === 'single' ? `${d.amount} ${symbol(d.paymentCurrency!)}` : `${d.amounts!.length} payments`
  message(
    'done',
    'Payment confirmed',
    'The payment was seen on chain and the request is paid.',
    h(
      'dl',
      { class: 'receipt' },
      h('dt', {}, 'Paid'),
      h('dd', { 'data-testid': 'paid' }, paid),
      d.payee ? h('dt', {}, 'To') : null,
      d.payee ? h('dd', { class: 'mono', title: d.payee }, short(d.payee)) : null,
      h('dt', {}, 'Total'),
      h('dd', {}, `$${d.feePlan.payerTotalAmountUsd}`),
      hash ? h('dt', {}, 'Transaction') : null,
      hash ? h('dd', { class: 'mono', 'data-testid': 'tx', title: hash }, short(hash)) : null,
    ),
    // only http(s) links, whatever a link kept from before the check was created with
    d.redirectUrl && /^https?:\/\//i.test(d.redirectUrl)
      ? h('a', { class: 'button primary', href: d.redirectUrl }, d.redirectLabel ?? 'Continue')
      : null,
  )
}

/** A multicall payout shown like a batch: its children's payees and amounts, their fee plans summed. */
export function normalise(d: Display): Display {
  if (d.paymentType !== 'multicall' || !d.children) return d
  const sum = (pick: (p: Display['feePlan']) => string) =>
    d.children!.reduce((s, c) => s + Number(pick(c.feePlan)), 0).toFixed(2)
  return {
    ...d,
    payees: d.children.map((c) => c.payee ?? ''),
    amounts: d.children.map((c) => c.amount ?? ''),
    paymentCurrencies: d.children.map((c) => c.context.currency ?? ''),
    network: d.children[0]?.context.network ?? '',
    reference: null,
    redirectUrl: null,
    redirectLabel: null,
    feePlan: {
      grossAmountUsd: sum((p) => p.grossAmountUsd),
      totalFeesUsd: sum((p) => p.totalFeesUsd),
      payerTotalAmountUsd: sum((p) => p.payerTotalAmountUsd),
      fees: [],
    },
  }
}
