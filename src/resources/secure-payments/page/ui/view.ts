// The page's views: DOM built from data (never HTML strings), the link's summary, the steps, the outcomes.
import type { ApiTransaction } from './wallet.ts'

export interface MulticallChild {
  payee: string | null
  amount: string | null
  context: { currency?: string; network?: string }
  feePlan: Display['feePlan']
}
export interface Display {
  paymentType: 'single' | 'batch' | 'multicall'
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

export function render(...children: Child[]) {
  app.replaceChildren(
    h(
      'div',
      { class: 'card' },
      h(
        'header',
        { class: 'brand' },
        h('span', { class: 'logo', 'aria-hidden': 'true' }),
        h('span', {}, 'Request Sandbox'),
        h('span', { class: 'badge' }, 'Secure payment'),
      ),
      ...children,
    ),
  )
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
    // a Tron link's resource-fee leg follows the payment
    return pay.transactions.map((tx, i) => ({
      label: i === index ? 'Pay' : i > index ? 'Resource fee' : 'Approve',
      tx,
      payment: i === index,
    }))
  }
  return [
    ...(pay.ERC20ApprovalTransactions ?? []).map((tx) => ({ label: 'Approve', tx, payment: false })),
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
    d.redirectUrl
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
