// Commerce payments (authorize → capture / void → refund through the sandbox's escrow): each payment with its
// state, what is held, captured and refunded, and every on-chain transition with its transaction.
import type { State } from './data-views.ts'
import { requestLink, txLink } from './data-views.ts'
import { badge, facts, h, short, table, when } from './dom.ts'

type Commerce = State['commercePayments'][number]

const money = (amount: string, currency: string) =>
  h('span', { class: 'amount' }, amount, ' ', h('small', {}, currency))

function card(c: Commerce): HTMLElement {
  return h(
    'article',
    { class: 'card', 'data-commerce-id': c.requestId },
    h('h3', {}, requestLink(c.requestId), ' ', badge(c.status)),
    facts([
      ['Authorized', money(c.authorizedAmount, c.paymentCurrency)],
      ['Held in escrow', money(c.capturableAmount, c.paymentCurrency)],
      ['Captured', money(c.capturedAmount, c.paymentCurrency)],
      ['Refunded', money(c.refundedAmount, c.paymentCurrency)],
      ['Payer', short(c.payer)],
      ['Merchant', short(c.merchant)],
      ['Operator', short(c.operator)],
      ['Capture until', when(c.authorizationExpiry)],
      ['Payment reference', h('code', {}, c.paymentReference)],
      ['Network', c.network],
    ]),
    table(
      `Transitions of ${c.requestId}`,
      ['Step', 'Amount', 'Fee', 'Transaction', 'Block', 'Time'],
      c.transitions.map((x) => [
        badge(x.type),
        money(x.amount, c.paymentCurrency),
        x.feeAmount,
        txLink(x.txHash, c.network),
        String(x.blockNumber),
        when(x.timestamp),
      ]),
      'Not authorized on chain yet: the payer sends the authorization calldata, or the API operator executes it.',
    ),
  )
}

/** Every commerce payment of the key, newest first. */
export function commerceView(state: State): HTMLElement {
  if (state.commercePayments.length === 0)
    return h(
      'p',
      { class: 'empty' },
      'No commerce payments: POST /v2/commerce-payments/authorize/calldata creates one.',
    )
  return h('div', { class: 'stack' }, state.commercePayments.map(card))
}
