// request-sandbox/playwright: what an app's end-to-end tests need from the sandbox, as Playwright fixtures and as
// plain functions (for playwright-core without the test runner). A test gets a sandbox (started once per worker,
// or joined at SANDBOX_URL), its own API key, and a wallet in its pages: an EIP-1193 provider announced through
// EIP-6963 (and set as window.ethereum), backed by one of anvil's funded accounts. Reads go from the page to the
// sandbox's /rpc; transactions and signatures are signed in the test process with the account's key (the key never
// enters the page), so the app's own checkout can be clicked through and paid on the sandbox's chain.
//
//   import { test as base, expect } from '@playwright/test'
//   import { sandboxFixtures, type SandboxFixtures } from 'request-sandbox/playwright'
//   export const test = base.extend<SandboxFixtures>(sandboxFixtures)
//   test('pays', async ({ page, sandbox, apiKey, wallet }) => { ... })
import { randomUUID } from 'node:crypto'
import { createPublicClient, createWalletClient, defineChain, type Hex, http } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'

/** A running sandbox the tests talk to. */
export interface PlaywrightSandbox {
  /** its base URL (API, /rpc, /__sandbox/*) */
  url: string
  /** whether this process started it (it is then stopped with `close`) */
  started: boolean
  close(): Promise<void>
}

/** Options of `startOrJoinSandbox`. */
export interface SandboxJoinOptions {
  /** a running sandbox to use (default: the SANDBOX_URL environment variable); none: one is started on port 0 */
  url?: string
}

/** Joins the sandbox at `url` (or SANDBOX_URL) when it answers its health check, or starts one on a free port. */
export async function startOrJoinSandbox(options: SandboxJoinOptions = {}): Promise<PlaywrightSandbox> {
  const url = (options.url ?? process.env.SANDBOX_URL)?.replace(/\/+$/, '')
  if (url) {
    const health = await fetch(`${url}/__sandbox/health`).catch((error: Error) => {
      throw new Error(`request-sandbox/playwright: no sandbox answers at ${url} (${error.message})`)
    })
    if (!health.ok)
      throw new Error(`request-sandbox/playwright: the sandbox at ${url} is not healthy (${health.status})`)
    return { url, started: false, close: async () => {} }
  }
  const { startServer } = await import('./server.ts')
  const server = await startServer({ port: 0 })
  return { url: server.url, started: true, close: () => server.close() }
}

/** A new API key: a tenant of its own (`label` makes it readable in the dashboard). */
export function newApiKey(label = 'e2e'): string {
  return `${label.replace(/[^\w-]+/g, '-').slice(0, 40)}-${randomUUID().slice(0, 8)}`
}

/** What a page's injected wallet is. */
export interface InjectedWallet {
  address: Hex
  chainId: number
  /** the hashes of the transactions the page sent through it, in order */
  transactions: Hex[]
}

/** The page-like object the wallet is installed in (a Playwright Page or BrowserContext). */
export interface WalletHost {
  // biome-ignore lint/suspicious/noExplicitAny: Playwright's own binding signature
  exposeBinding(name: string, callback: (source: any, ...args: any[]) => any): Promise<unknown>
  addInitScript(script: { content: string }): Promise<unknown>
}

/** Options of `installWallet`. */
export interface WalletOptions {
  /** which of anvil's funded accounts (GET /__sandbox/chain `accounts`; default 0) */
  accountIndex?: number
  /** or a private key of your own (funded with POST /__sandbox/faucet) */
  privateKey?: Hex
  /** the EIP-6963 name shown by wallet pickers (default "Request Sandbox Wallet") */
  name?: string
  /** also set window.ethereum (default true) */
  setWindowEthereum?: boolean
}

interface ChainInfo {
  chainId: number
  rpcUrl: string
  accounts: { address: Hex; privateKey: Hex }[]
}

const ICON =
  'data:image/svg+xml;base64,' +
  Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#0bb489"/><path d="M9 10h9a5 5 0 0 1 0 10h-4l5 4h-5l-5-4V10z" fill="#fff"/></svg>',
  ).toString('base64')

/**
 * Installs the wallet in every page of `host` (before any of the page's own scripts): an EIP-1193 provider that
 * answers eth_requestAccounts / eth_accounts / eth_chainId itself, forwards reads to the sandbox's /rpc, and has
 * eth_sendTransaction, personal_sign and eth_signTypedData_v4 signed here with the account's key.
 */
export async function installWallet(
  host: WalletHost,
  sandboxUrl: string,
  options: WalletOptions = {},
): Promise<InjectedWallet> {
  const response = await fetch(`${sandboxUrl}/__sandbox/chain`)
  if (!response.ok)
    throw new Error(`request-sandbox/playwright: the sandbox has no chain (${response.status})`)
  const info = (await response.json()) as ChainInfo
  const privateKey = options.privateKey ?? info.accounts[options.accountIndex ?? 0]?.privateKey
  if (!privateKey) throw new Error(`request-sandbox/playwright: anvil has no account ${options.accountIndex}`)
  const account = privateKeyToAccount(privateKey)
  const rpcUrl = `${sandboxUrl}/rpc`
  const chain = defineChain({
    id: info.chainId,
    name: 'Request Sandbox',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  })
  const walletClient = createWalletClient({ account, chain, transport: http(rpcUrl) })
  const publicClient = createPublicClient({ chain, transport: http(rpcUrl) })
  const wallet: InjectedWallet = { address: account.address, chainId: info.chainId, transactions: [] }
  // one transaction at a time: each takes the next nonce
  let queue: Promise<unknown> = Promise.resolve()
  const binding = `__requestSandboxWallet_${randomUUID().replaceAll('-', '')}`
  await host.exposeBinding(binding, async (_source: unknown, method: string, params: unknown[]) => {
    if (method === 'eth_sendTransaction') {
      const tx = (params[0] ?? {}) as { to?: Hex; data?: Hex; value?: Hex; gas?: Hex }
      const send = queue.then(async () => {
        const hash = await walletClient.sendTransaction({
          account,
          chain,
          ...(tx.to ? { to: tx.to } : {}),
          ...(tx.data ? { data: tx.data } : {}),
          value: BigInt(tx.value ?? '0x0'),
          ...(tx.gas ? { gas: BigInt(tx.gas) } : {}),
        })
        // the next transaction is signed once this one is mined (anvil mines at once)
        await publicClient.waitForTransactionReceipt({ hash })
        wallet.transactions.push(hash)
        return hash
      })
      queue = send.catch(() => undefined)
      return send
    }
    if (method === 'personal_sign') return account.signMessage({ message: { raw: params[0] as Hex } })
    if (method === 'eth_signTypedData_v4') {
      const data = typeof params[1] === 'string' ? JSON.parse(params[1]) : params[1]
      return account.signTypedData(data as never)
    }
    throw new Error(`unsupported method ${method}`)
  })
  const config = {
    binding,
    address: account.address,
    chainId: `0x${info.chainId.toString(16)}`,
    rpcUrl,
    info: {
      uuid: randomUUID(),
      name: options.name ?? 'Request Sandbox Wallet',
      icon: ICON,
      rdns: 'network.request.sandbox',
    },
    setWindowEthereum: options.setWindowEthereum ?? true,
  }
  await host.addInitScript({ content: `(${PAGE_WALLET})(${JSON.stringify(config)})` })
  return wallet
}

/**
 * The provider as it runs in the page: plain JavaScript text, not a function's source (a transpiler may add helpers
 * to a function, such as esbuild's __name, that the page does not have). Called with the config.
 */
const PAGE_WALLET = `(config) => {
  const listeners = new Map()
  const signer = window[config.binding]
  let id = 0
  const provider = {
    isRequestSandbox: true,
    async request({ method, params = [] }) {
      switch (method) {
        case 'eth_requestAccounts':
        case 'eth_accounts':
          return [config.address]
        case 'eth_chainId':
          return config.chainId
        case 'net_version':
          return String(parseInt(config.chainId, 16))
        case 'wallet_switchEthereumChain': {
          const wanted = params[0] && params[0].chainId
          if (wanted && parseInt(wanted, 16) !== parseInt(config.chainId, 16))
            throw Object.assign(new Error('Unrecognized chain ' + wanted), { code: 4902 })
          return null
        }
        case 'wallet_requestPermissions':
        case 'wallet_getPermissions':
          return [{ parentCapability: 'eth_accounts' }]
        case 'eth_sendTransaction':
        case 'personal_sign':
        case 'eth_signTypedData_v4':
          return signer(method, params)
        default: {
          const response = await fetch(config.rpcUrl, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
          })
          const body = await response.json()
          if (body.error) throw Object.assign(new Error(body.error.message), { code: body.error.code })
          return body.result
        }
      }
    },
    on(event, listener) {
      if (!listeners.has(event)) listeners.set(event, new Set())
      listeners.get(event).add(listener)
      return provider
    },
    removeListener(event, listener) {
      if (listeners.has(event)) listeners.get(event).delete(listener)
      return provider
    },
  }
  const detail = Object.freeze({ info: Object.freeze(Object.assign({}, config.info)), provider })
  const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
  window.addEventListener('eip6963:requestProvider', announce)
  announce()
  if (config.setWindowEthereum) window.ethereum = provider
}`

/** The fixtures `test.extend` takes (types kept structural: this package does not depend on @playwright/test). */
export interface SandboxFixtures {
  /** the sandbox, started once per worker or joined at SANDBOX_URL */
  sandbox: PlaywrightSandbox
  /** a new API key for each test */
  apiKey: string
  /** the wallet injected into the test's `page` (anvil account `walletOptions.accountIndex`, default 0) */
  wallet: InjectedWallet
  /** options of the wallet (override with test.use({ walletOptions: {...} })) */
  walletOptions: WalletOptions
}

type Use<T> = (value: T) => Promise<void>

/** Playwright fixtures: `base.extend<SandboxFixtures>(sandboxFixtures)`. */
export const sandboxFixtures = {
  walletOptions: [{}, { option: true }],
  sandbox: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}: Record<string, never>, use: Use<PlaywrightSandbox>) => {
      const sandbox = await startOrJoinSandbox()
      try {
        await use(sandbox)
      } finally {
        await sandbox.close()
      }
    },
    { scope: 'worker' },
  ],
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  apiKey: async ({}: Record<string, never>, use: Use<string>, testInfo: { title?: string }) => {
    await use(newApiKey(testInfo?.title ?? 'e2e'))
  },
  wallet: async (
    {
      page,
      sandbox,
      walletOptions,
    }: { page: WalletHost; sandbox: PlaywrightSandbox; walletOptions: WalletOptions },
    use: Use<InjectedWallet>,
  ) => {
    await use(await installWallet(page, sandbox.url, walletOptions))
  },
} as const
