// A transaction read from the local chain (GET /__sandbox/transactions/{hash}): who sent what to which contract,
// the function called, and its logs with Request Network's proxy events decoded and linked to their request.
import type { readTransaction } from '../transaction.ts'
import { AMOUNT_ARGS, tokenAmount } from './amount.ts'
import { requestLink } from './data-views.ts'
import { badge, facts, h, json, when } from './dom.ts'

/** GET /__sandbox/transactions/{hash}. */
export type Transaction = Awaited<ReturnType<typeof readTransaction>>

/** A transaction read from the local chain. */
export function transactionView(tx: Transaction): HTMLElement {
  const named = (address: string | null, name: string | null) =>
    h(
      'span',
      {},
      h('code', { class: 'wrap' }, address ?? '—'),
      name ? h('span', { class: 'tag' }, name) : null,
    )
  return h(
    'div',
    { class: 'stack' },
    facts([
      ['Status', badge(tx.status)],
      ['Hash', h('code', { class: 'wrap' }, tx.hash)],
      ['Network', `${tx.network} (chain id ${tx.chainId})`],
      ['Block', tx.blockNumber === null ? 'pending' : `${tx.blockNumber}`],
      ['Time', when(tx.timestamp)],
      ['From', named(tx.from, tx.fromName)],
      ['To', named(tx.to, tx.toName)],
      ['Value', `${tx.valueEth} ETH`],
      ['Gas used', tx.gasUsed ?? '—'],
      [
        'Call',
        tx.call ? h('code', {}, tx.call.functionName) : h('span', { class: 'muted' }, 'not a known function'),
      ],
    ]),
    tx.call
      ? h('details', { 'data-key': 'call' }, h('summary', {}, 'Call arguments'), json(tx.call.args))
      : null,
    h('h2', {}, 'Events'),
    tx.logs.length === 0
      ? h('p', { class: 'empty' }, 'No logs.')
      : h(
          'ol',
          { class: 'events' },
          tx.logs.map((log) =>
            h(
              'li',
              { class: 'card' },
              h(
                'p',
                {},
                h('strong', {}, log.event ?? 'unknown event'),
                ' from ',
                named(log.address, log.contract),
                'requestId' in log && log.requestId
                  ? h('span', {}, ' · request ', requestLink(log.requestId as string))
                  : null,
              ),
              'topics' in log
                ? json({ topics: log.topics, data: log.data })
                : facts([
                    ...('paymentReference' in log && log.paymentReference
                      ? ([['reference of the request', h('code', {}, log.paymentReference as string)]] as [
                          string,
                          Node,
                        ][])
                      : []),
                    ...Object.entries((log.args ?? {}) as Record<string, unknown>).map(([name, value]) => {
                      const amount =
                        'units' in log && log.units && AMOUNT_ARGS.has(name)
                          ? tokenAmount(String(value), log.units)
                          : undefined
                      return [
                        name,
                        amount
                          ? h(
                              'code',
                              { class: 'wrap amount', title: amount.title, 'data-raw': String(value) },
                              amount.text,
                            )
                          : h('code', { class: 'wrap' }, String(value)),
                      ] as [string, Node]
                    }),
                  ]),
            ),
          ),
        ),
  )
}
