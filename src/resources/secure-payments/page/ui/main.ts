// The Secure Payment Page's script: reads the link (GET /v2/secure-payments/{token}), connects a wallet, walks
// approve then pay with the calldata of /pay, reports the payer's steps, and shows the confirmation once the
// sandbox's detector has seen the payment (the link then answers 409 completed).
import {
  type ApiTransaction,
  connectInjected,
  hasInjectedWallet,
  type PageWallet,
  testWallet,
} from './wallet.ts'

interface MulticallChild {
  payee: string | null
  amount: string | null
  context: { currency?: string; network?: string }
  feePlan: Display['feePlan']
}
interface Display {
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
    fees: { label: string; calculatedAmountUsd: string; percentageBps: number }[]
  }
}
interface ChainInfo {
  network: string
  chainId: number
  live: boolean
  testWallet: string | null
}
interface PayAnswer {
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
const token = new URLSearchParams(location.search).get('token') ?? ''
const root = new URL('../', location.href) // the page is /…/__sandbox/secure-payment: the API is one level up

type Child = Node | string | null | undefined | false
function h(tag: string, attrs: Record<string, string> = {}, ...children: Child[]): HTMLElement {
  const node = document.createElement(tag)
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v)
  for (const c of children) if (c !== null && c !== undefined && c !== false) node.append(c)
  return node
}
const short = (a: string) => `${a.slice(0, 6)}…${a.slice(-4)}`
const symbol = (currencyId: string) => currencyId.split('-')[0] ?? currencyId

async function api<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(new URL(path, root), {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  })
  return { status: res.status, body: (await res.json().catch(() => ({}))) as T }
}

function render(...children: Child[]) {
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

function message(kind: 'error' | 'done' | 'info', title: string, text: string, ...extra: Child[]) {
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

function summary(d: Display): HTMLElement {
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
        h('dt', {}, `${f.label} (${f.percentageBps / 100}%)`),
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

function steps(labels: string[], active: number, done: number): HTMLElement {
  return h(
    'ol',
    { class: 'steps' },
    ...labels.map((label, i) => h('li', { class: i < done ? 'done' : i === active ? 'active' : '' }, label)),
  )
}

function transactionsOf(pay: PayAnswer): { label: string; tx: ApiTransaction; payment: boolean }[] {
  if (pay.transactions) {
    const index = pay.metadata?.paymentTransactionIndex ?? pay.transactions.length - 1
    return pay.transactions.map((tx, i) => ({
      label: i === index ? 'Pay' : 'Approve',
      tx,
      payment: i === index,
    }))
  }
  return [
    ...(pay.ERC20ApprovalTransactions ?? []).map((tx) => ({ label: 'Approve', tx, payment: false })),
    { label: 'Pay batch', tx: pay.batchPaymentTransaction!, payment: true },
  ]
}

async function userEvent(userEvent: string, wallet: PageWallet, txHash?: string): Promise<number> {
  const res = await api('POST', `__sandbox/secure-payments/${token}/user-events`, {
    userEvent,
    walletAddress: wallet.address,
    ...(txHash ? { txHash } : {}),
  })
  return res.status
}

async function waitForConfirmation(): Promise<void> {
  for (;;) {
    const res = await api<{ message?: string }>('GET', `v2/secure-payments/${token}`)
    if (res.status === 409) return
    if (res.status !== 200) throw new Error(res.body.message ?? `The link answered ${res.status}`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

function confirmed(d: Display, hash: string | null) {
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

async function pay(d: Display, wallet: PageWallet) {
  const connectedAs = h(
    'p',
    { class: 'wallet' },
    h('span', { class: 'dot' }),
    `${wallet.kind === 'test' ? 'Test wallet' : 'Wallet'} `,
    h('span', { class: 'mono', 'data-testid': 'wallet' }, short(wallet.address)),
  )
  const status = h('p', { class: 'status', role: 'status' }, 'Preparing the transactions…')
  render(summary(d), connectedAs, status)
  const answer = await api<PayAnswer & { message?: string }>(
    'GET',
    `v2/secure-payments/${token}/pay?wallet=${wallet.address}`,
  )
  if (answer.status === 409) return confirmed(d, null)
  if (answer.status !== 200)
    throw new Error(answer.body.message ?? `The payment could not be prepared (${answer.status})`)
  if (answer.body.metadata?.hasEnoughBalance === false)
    throw new Error('This wallet does not hold enough tokens for this payment.')
  const txs = transactionsOf(answer.body)
  const labels = [
    ...txs.map((t) =>
      t.label === 'Approve' ? `Approve ${symbol(d.paymentCurrency ?? d.paymentCurrencies![0]!)}` : t.label,
    ),
    'Confirmation',
  ]
  const button = h(
    'button',
    { class: 'button primary', 'data-testid': 'pay' },
    `Pay $${d.feePlan.payerTotalAmountUsd}`,
  ) as HTMLButtonElement
  render(summary(d), connectedAs, steps(labels, 0, 0), button)
  await new Promise<void>((resolve) => button.addEventListener('click', () => resolve(), { once: true }))
  let lastHash: string | null = null
  for (const [i, step] of txs.entries()) {
    render(
      summary(d),
      connectedAs,
      steps(labels, i, i),
      h('p', { class: 'status', role: 'status' }, `${labels[i]}: confirm in your wallet…`),
    )
    if (step.payment) await userEvent('payment_sent_to_wallet', wallet)
    const { hash, mined } = await wallet.send(step.tx)
    if (step.payment) await userEvent('payment_approved_in_wallet', wallet, hash)
    render(
      summary(d),
      connectedAs,
      steps(labels, i, i),
      h('p', { class: 'status', role: 'status' }, `${labels[i]}: waiting for the block…`),
    )
    await mined
    lastHash = hash
  }
  render(
    summary(d),
    connectedAs,
    steps(labels, txs.length, txs.length),
    h('p', { class: 'status', role: 'status' }, 'Waiting for the payment to be detected…'),
  )
  await waitForConfirmation()
  confirmed(d, lastHash)
}

async function connect(d: Display, chain: ChainInfo, kind: 'injected' | 'test') {
  const wallet = kind === 'test' ? testWallet(token, chain.testWallet!) : await connectInjected(chain.chainId)
  if ((await userEvent('wallet_connected', wallet)) === 403)
    return message(
      'error',
      'Wallet not allowed',
      `The wallet ${short(wallet.address)} is not allowed to pay this link. Connect the payer's wallet.`,
      h('a', { class: 'button', 'data-testid': 'retry', href: location.href }, 'Try another wallet'),
    )
  await pay(d, wallet)
}

/** A multicall payout shown like a batch: its children's payees and amounts, their fee plans summed. */
function normalise(d: Display): Display {
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

async function start() {
  if (!token)
    return message('error', 'No payment link', 'This page needs the token of a secure payment link.')
  const [link, chain] = await Promise.all([
    api<Display & { message?: string }>('GET', `v2/secure-payments/${token}`),
    api<ChainInfo>('GET', `__sandbox/secure-payments/${token}/chain`),
  ])
  if (link.status === 409)
    return message('done', 'Already paid', 'This secure payment has already been completed.')
  if (link.status === 404) return message('error', 'Link not found', 'No secure payment has this token.')
  if (link.status === 403)
    return message('error', 'Link expired', 'This secure payment link has expired or was replaced.')
  if (link.status !== 200)
    return message('error', 'Unavailable', link.body.message ?? `The sandbox answered ${link.status}.`)
  const d = normalise(link.body)
  const buttons: HTMLElement[] = []
  const run = (kind: 'injected' | 'test') => () =>
    connect(d, chain.body, kind).catch((error: Error) => message('error', 'Payment failed', error.message))
  if (hasInjectedWallet()) {
    const b = h('button', { class: 'button primary', 'data-testid': 'connect' }, 'Connect wallet')
    b.addEventListener('click', run('injected'))
    buttons.push(b)
  }
  if (chain.body.testWallet) {
    const b = h(
      'button',
      { class: hasInjectedWallet() ? 'button' : 'button primary', 'data-testid': 'test-wallet' },
      'Use the sandbox test wallet',
    )
    b.addEventListener('click', run('test'))
    buttons.push(b)
  }
  render(
    summary(d),
    h('div', { class: 'actions' }, ...buttons),
    h(
      'p',
      { class: 'hint' },
      chain.body.live
        ? `Your wallet must be on chain ${chain.body.chainId}, RPC ${new URL('rpc', root).href}.`
        : `The sandbox does not run ${d.network}: this link cannot be paid here.`,
    ),
  )
}

start().catch((error: Error) => message('error', 'Something went wrong', error.message))
