// The dashboard's views of a key's data: requests and their payments, a transaction read from the chain,
// recurring payouts, payers (compliance, payment details) and client IDs.
import type { dashboardState } from '../world-read.ts'
import { badge, facts, h, short, table, when } from './dom.ts'

/** GET /__sandbox/state. */
export type State = ReturnType<typeof dashboardState>
type RequestView = State['requests'][number]

/** A link to the transaction view. */
export const txLink = (hash: string, network: string) =>
  h('a', { href: `#tx/${hash}/${network}`, class: 'mono' }, short(hash, 8))
/** A link to a request's view. */
export const requestLink = (id: string | null | undefined) =>
  id ? h('a', { href: `#request/${id}`, class: 'mono' }, short(id, 8)) : '—'
const money = (amount: string, currency: string) =>
  h('span', { class: 'amount' }, amount, ' ', h('small', {}, currency))

function paymentsCell(r: RequestView) {
  if (r.payments.length === 0) return h('span', { class: 'muted' }, 'none yet')
  return h(
    'ul',
    { class: 'plain' },
    r.payments.map((p) =>
      h('li', {}, txLink(p.txHash, p.network), h('span', { class: 'muted' }, ` block ${p.blockNumber}`)),
    ),
  )
}

/** `1 request`, `2 requests`: the label given is the plural; `payees`-style plurals drop their final s. */
export const counted = (n: number, plural: string) => (n === 1 ? plural.replace(/s$/, '') : plural)
const stat = (label: string, value: number) =>
  h('div', { class: 'stat' }, h('strong', {}, String(value)), h('span', {}, counted(value, label)))

/** A request's status; the request a recurring payout was created with is paid through its children. */
const requestStatus = (r: RequestView) =>
  r.recurringPayoutId && r.status === 'pending'
    ? h('a', { href: '#payouts', class: 'badge', 'data-status': 'recurring' }, 'recurring')
    : badge(r.status)
/** The payer a request names, else the wallet that paid it (the API's payerAddress). */
const payerOf = (r: RequestView) => r.payer ?? r.payerAddress

/** Every request of the key, newest first, under a summary of the key's world. */
export function requestsView(state: State): HTMLElement {
  return h(
    'div',
    {},
    h(
      'div',
      { class: 'stats', role: 'group', 'aria-label': 'Summary' },
      stat('requests', state.requests.length),
      stat('paid', state.requests.filter((r) => r.status === 'paid').length),
      stat(
        'payments',
        state.requests.reduce((n, r) => n + r.payments.length, 0),
      ),
      stat('payouts', state.payouts.length),
      stat('payers', state.payers.length),
      stat('webhooks', state.webhooks.length),
    ),
    requestsTable(state),
  )
}

function requestsTable(state: State): HTMLElement {
  return table(
    'Requests',
    ['Created', 'Request', 'Status', 'Amount', 'Payee', 'Payer', 'Payment reference', 'Payments'],
    state.requests.map((r) => [
      when(r.createdAt),
      requestLink(r.requestId),
      requestStatus(r),
      money(r.amount, r.invoiceCurrency),
      short(r.payee),
      short(payerOf(r)),
      h('code', {}, r.paymentReference),
      paymentsCell(r),
    ]),
    'No requests yet: create one with POST /v2/request and it appears here.',
  )
}

/** One request with its payments. */
export function requestView(state: State, id: string): HTMLElement {
  const r = state.requests.find((x) => x.requestId === id)
  if (!r) return h('p', { class: 'empty' }, `This key has no request ${id}.`)
  return h(
    'div',
    { class: 'stack' },
    facts([
      ['Status', requestStatus(r)],
      ...(r.recurringPayoutId
        ? ([
            [
              'Recurring payout',
              h('span', {}, h('code', {}, r.recurringPayoutId), ' (each payment is a child request)'),
            ],
          ] as [string, Node][])
        : []),
      ['Request id', h('code', { class: 'wrap' }, r.requestId)],
      ['Payment reference', h('code', {}, r.paymentReference)],
      ['Amount', money(r.amount, r.invoiceCurrency)],
      ['Payment currency', `${r.paymentCurrency} on ${r.network}`],
      ['Payee', h('code', { class: 'wrap' }, r.payee ?? '—')],
      ['Payer', h('code', { class: 'wrap' }, payerOf(r) ?? '—')],
      ['Paid to', h('code', { class: 'wrap' }, r.paymentAddress)],
      ['Reference', r.reference ?? '—'],
      ['Created', when(r.createdAt)],
      ...(r.originalRequestId
        ? ([['Original request', requestLink(r.originalRequestId)]] as [string, Node][])
        : []),
      ...(r.clientId ? ([['Client ID', h('code', {}, r.clientId)]] as [string, Node][]) : []),
      ...(r.offrampSubStatus ? ([['Off-ramp', badge(r.offrampSubStatus)]] as [string, Node][]) : []),
    ]),
    h('h2', {}, 'Payments'),
    table(
      'Payments',
      ['Transaction', 'Block', 'Amount', 'Paid', 'Fee', 'From', 'Kind', 'Time'],
      r.payments.map((p) => [
        txLink(p.txHash, p.network),
        String(p.blockNumber),
        money(p.amount, r.invoiceCurrency),
        money(p.paidAmount, r.paymentCurrency),
        p.feeAmount,
        short(p.from),
        p.type,
        when(p.timestamp),
      ]),
      'Not paid yet. Its /pay transactions sent to the chain show here within a block.',
    ),
  )
}
/** Recurring payouts: schedule, executions, state. */
export function payoutsView(state: State): HTMLElement {
  if (state.payouts.length === 0)
    return h('p', { class: 'empty' }, 'No recurring payouts: POST /v2/payouts with a recurrence creates one.')
  return h(
    'div',
    { class: 'stack' },
    state.payouts.map((p) =>
      h(
        'article',
        { class: 'card', 'data-payout-id': p.id },
        h('h3', {}, h('code', {}, p.id), ' ', badge(p.status)),
        facts([
          ['Amount', money(p.amount, p.paymentCurrency)],
          ['Schedule', `${p.frequency.toLowerCase()}, ${p.processedPayments} of ${p.totalPayments} paid`],
          ['Next payment', when(p.nextPaymentDate)],
          ['Last payment', when(p.lastPaymentDate)],
          ['Payer', short(p.payer)],
          ['Payee', short(p.payee)],
          ['First request', requestLink(p.originalRequestId)],
          ...(p.failureReason
            ? ([['Failure', `${p.failureReason} (${p.failureCount}×)`]] as [string, string][])
            : []),
        ]),
        table(
          'Executions',
          ['#', 'Time', 'Amount', 'Transaction', 'Block', 'Request'],
          p.payments.map((x) => [
            // the payout's own numbering: its first payment is index 1
            String(x.index),
            when(x.timestamp),
            x.amount,
            txLink(x.txHash, p.network),
            String(x.blockNumber),
            requestLink(x.requestId),
          ]),
          'No executions yet.',
        ),
      ),
    ),
  )
}

/** Payers with their compliance and payment details, then the client IDs. */
export function payersView(state: State): HTMLElement {
  return h(
    'div',
    { class: 'stack' },
    h('h2', {}, 'Payers'),
    state.payers.length === 0
      ? h('p', { class: 'empty' }, 'No payers: POST /v2/payer creates one.')
      : state.payers.map((p) =>
          h(
            'article',
            { class: 'card' },
            h('h3', {}, p.name, ' ', h('small', { class: 'muted' }, p.clientUserId)),
            facts([
              [
                'Agreement',
                h(
                  'span',
                  {},
                  badge(p.agreementStatus),
                  ' ',
                  h('a', { href: p.agreementUrl }, 'agreement page'),
                ),
              ],
              ['KYC', h('span', {}, badge(p.kycStatus), ' ', h('a', { href: p.kycUrl }, 'KYC page'))],
              ['Compliant', p.isCompliant ? 'yes' : 'no'],
              ['Email', p.email],
              ['Country', p.country],
            ]),
            table(
              `Payment details of ${p.clientUserId}`,
              ['Id', 'Status', 'Bank', 'Account', 'Currency', 'Rails'],
              p.paymentDetails.map((d) => [
                h('code', {}, d.id),
                badge(d.status),
                `${d.bankName} (${d.accountName})`,
                d.account ?? '—',
                d.currency,
                d.rails,
              ]),
              'No payment details.',
            ),
          ),
        ),
    h('h2', {}, 'Client IDs'),
    table(
      'Client IDs',
      ['Label', 'Client ID', 'Status', 'Allowed domains', 'Fee', 'Last used'],
      state.clientIds.map((c) => [
        c.label,
        h('code', {}, c.clientId),
        badge(c.status),
        c.allowedDomains.join(', ') || 'any (back end)',
        c.feePercentage ? `${c.feePercentage} %` : '—',
        when(c.lastUsedAt),
      ]),
      'No client IDs.',
    ),
  )
}

/** Secure payment links (POST /v2/secure-payments): their page, state and requests. */
export function securePaymentsView(state: State): HTMLElement {
  return table(
    'Secure payment links',
    ['Created', 'Link', 'Status', 'Kind', 'Currency', 'Requests', 'Payer', 'Expires'],
    state.securePayments.map((l) => [
      when(l.createdAt),
      h(
        'a',
        {
          href: `__sandbox/secure-payment?token=${encodeURIComponent(l.token)}`,
          target: '_blank',
          rel: 'noopener',
        },
        h('code', {}, short(l.token, 10)),
      ),
      l.combinedInto
        ? h('span', {}, badge(l.status), h('small', { class: 'muted' }, ' combined'))
        : badge(l.status),
      `${l.paymentType}, ${l.flow === 'pay' ? 'payout' : 'get paid'}`,
      `${l.currency} on ${l.network}`,
      h(
        'ul',
        { class: 'plain' },
        l.requestIds.map((id) => h('li', {}, requestLink(id))),
      ),
      short(l.payerAddress),
      when(l.expiresAt),
    ]),
    'No secure payment links: POST /v2/secure-payments creates one, and its page opens from here.',
  )
}
