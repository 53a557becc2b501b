// The Secure Payment Page's script: reads the link (GET __sandbox/secure-payments/{token}, the API's answer), connects a wallet, walks
// approve then pay with the calldata of /pay, reports the payer's steps, and shows the confirmation once the
// sandbox's detector has seen the payment (the link then answers 409 completed).
import {
  applyBranding,
  type ChainInfo,
  confirmed,
  type Display,
  h,
  message,
  normalise,
  type PayAnswer,
  render,
  short,
  steps,
  summary,
  symbol,
  transactionsOf,
} from './view.ts'
import { connectInjected, connectTron, hasInjectedWallet, type PageWallet, testWallet } from './wallet.ts'

const token = new URLSearchParams(location.search).get('token') ?? ''
const root = new URL('../', location.href) // the page is /…/__sandbox/secure-payment: the API is one level up

async function api<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(new URL(path, root), {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  })
  return { status: res.status, body: (await res.json().catch(() => ({}))) as T }
}

async function userEvent(userEvent: string, wallet: PageWallet, txHash?: string): Promise<number> {
  const res = await api('POST', `__sandbox/secure-payments/${token}/user-events`, {
    userEvent,
    walletAddress: wallet.address,
    occurredAt: new Date().toISOString(),
    walletProvider: wallet.kind === 'test' ? 'sandbox-test-wallet' : 'injected',
    ...(txHash ? { txHash } : {}),
  })
  return res.status
}

async function waitForConfirmation(): Promise<void> {
  for (;;) {
    const res = await api<{ message?: string }>('GET', `__sandbox/secure-payments/${token}`)
    if (res.status === 409) return
    if (res.status !== 200) throw new Error(res.body.message ?? `The link answered ${res.status}`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

/**
 * Gasless approval (api-features/secure-payment-pages.mdx#gasless-token-approvals-eip-2612): for a token with
 * EIP-2612 the wallet signs the permit /pay carried and the sandbox submits it; false (the page then sends the
 * approval transaction) when there is no permit, the wallet cannot sign typed data, or the sandbox refused it.
 */
async function approvedByPermit(answer: PayAnswer, wallet: PageWallet): Promise<boolean> {
  if (!answer.approvalPermitPayload || !wallet.signPermit) return false
  let signature: string
  try {
    signature = await wallet.signPermit(answer.approvalPermitPayload)
  } catch {
    return false
  }
  const { deadline } = (JSON.parse(answer.approvalPermitPayload) as { values: { deadline: number } }).values
  const res = await api('POST', `__sandbox/secure-payments/${token}/permit`, {
    wallet: wallet.address,
    signature,
    deadline,
  })
  return res.status === 200
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
    `__sandbox/secure-payments/${token}/pay?wallet=${wallet.address}`,
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
    if (step.label === 'Approve' && (await approvedByPermit(answer.body, wallet))) continue
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
  const wallet =
    kind === 'test'
      ? testWallet(token, chain.testWallet!)
      : chain.tron
        ? await connectTron(token)
        : await connectInjected(chain.chainId)
  if ((await userEvent('wallet_connected', wallet)) === 403)
    return message(
      'error',
      'Wallet not allowed',
      `The wallet ${short(wallet.address)} is not allowed to pay this link. Connect the payer's wallet.`,
      h('a', { class: 'button', 'data-testid': 'retry', href: location.href }, 'Try another wallet'),
    )
  await pay(d, wallet)
}

async function start() {
  if (!token)
    return message('error', 'No payment link', 'This page needs the token of a secure payment link.')
  const [link, chain] = await Promise.all([
    api<Display & { message?: string }>('GET', `__sandbox/secure-payments/${token}`),
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
  applyBranding(d.branding, root)
  const buttons: HTMLElement[] = []
  const run = (kind: 'injected' | 'test') => () =>
    connect(d, chain.body, kind).catch((error: Error) => message('error', 'Payment failed', error.message))
  const injected = hasInjectedWallet(chain.body.tron === true)
  if (injected) {
    const b = h(
      'button',
      { class: 'button primary', 'data-testid': 'connect' },
      chain.body.tron ? 'Connect TronLink' : 'Connect wallet',
    )
    b.addEventListener('click', run('injected'))
    buttons.push(b)
  }
  if (chain.body.testWallet) {
    const b = h(
      'button',
      { class: injected ? 'button' : 'button primary', 'data-testid': 'test-wallet' },
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
      chain.body.live && chain.body.tron
        ? `Your Tron wallet's node must be ${new URL(chain.body.fullNodePath!.slice(1), root).href}.`
        : chain.body.live
          ? `Your wallet must be on chain ${chain.body.chainId}, RPC ${new URL('rpc', root).href}.`
          : `The sandbox does not run ${d.network}: this link cannot be paid here.`,
    ),
  )
}

start().catch((error: Error) => message('error', 'Something went wrong', error.message))
