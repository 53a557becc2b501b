// The live chains (GET /__sandbox/chain) with their funded accounts, and the faucet (POST /__sandbox/faucet).
import { call } from './api.ts'
import { field, h, table } from './dom.ts'
import { act, type Shell, type View } from './view.ts'

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
    // an EVM address, or a Tron `T…` one (base58check) for Tron's TRX and tokens
    pattern: '0x[0-9a-fA-F]{40}|T[1-9A-HJ-NP-Za-km-z]{33}',
    placeholder: '0x… or T…',
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
        // each chain's tokens and its native coin as the faucet names it (TRX-tron on Tron)
        const native = (network: string) => (network === 'tron' ? 'TRX-tron' : `ETH-${network}-${network}`)
        const ids = info.chains.flatMap((c) => [...Object.keys(c.tokens), native(c.network)])
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
