// The two wallets the page can pay with: an injected EIP-1193 provider (window.ethereum), or the sandbox's
// built-in test wallet (a funded anvil account the sandbox signs with, for demos without a wallet).

/** A transaction as /pay returns it. */
export interface ApiTransaction {
  to: string
  data: string
  value: { hex: string } | string | number
}

/** What the page needs of a wallet. */
export interface PageWallet {
  kind: 'injected' | 'test'
  address: string
  /** sends one transaction: resolves with its hash once the wallet signed it, and `mined` once it is mined */
  send(tx: ApiTransaction): Promise<{ hash: string; mined: Promise<void> }>
}

interface Eip1193 {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>
}

declare global {
  interface Window {
    ethereum?: Eip1193
  }
}

const valueHex = (v: ApiTransaction['value']) =>
  typeof v === 'object' ? v.hex : typeof v === 'number' ? `0x${v.toString(16)}` : v

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Whether the browser has an injected wallet. */
export function hasInjectedWallet(): boolean {
  return typeof window.ethereum?.request === 'function'
}

/** Connects window.ethereum: asks for accounts, moves it to the payment's chain when it is elsewhere. */
export async function connectInjected(chainId: number): Promise<PageWallet> {
  const provider = window.ethereum!
  const accounts = (await provider.request({ method: 'eth_requestAccounts' })) as string[]
  const address = accounts[0]
  if (!address) throw new Error('The wallet shared no account')
  const current = Number.parseInt((await provider.request({ method: 'eth_chainId' })) as string, 16)
  if (current !== chainId)
    await provider.request({
      method: 'wallet_switchEthereumChain',
      params: [{ chainId: `0x${chainId.toString(16)}` }],
    })
  return {
    kind: 'injected',
    address,
    async send(tx) {
      const hash = (await provider.request({
        method: 'eth_sendTransaction',
        params: [{ from: address, to: tx.to, data: tx.data, value: valueHex(tx.value) }],
      })) as string
      const mined = (async () => {
        for (;;) {
          const receipt = (await provider.request({
            method: 'eth_getTransactionReceipt',
            params: [hash],
          })) as {
            status: string
          } | null
          if (receipt) {
            if (receipt.status !== '0x1') throw new Error(`Transaction ${hash} reverted`)
            return
          }
          await sleep(150)
        }
      })()
      return { hash, mined }
    },
  }
}

/** The sandbox's test wallet (its address comes with the link's chain info). */
export function testWallet(token: string, address: string): PageWallet {
  return {
    kind: 'test',
    address,
    async send(tx) {
      const sent = await fetch(`secure-payments/${token}/test-wallet/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ transaction: tx }),
      })
      const result = await sent.json()
      if (!sent.ok) throw new Error(result.message ?? 'The test wallet could not send the transaction')
      return { hash: result.txHash as string, mined: Promise.resolve() }
    },
  }
}
