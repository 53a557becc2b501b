// The two wallets the page can pay with: an injected EIP-1193 provider (window.ethereum), or the sandbox's
// built-in test wallet (a funded anvil account the sandbox signs with, for demos without a wallet).

/** A transaction as /pay returns it (a Tron step also carries TronWeb's trigger arguments). */
export interface ApiTransaction {
  to: string
  data: string
  value: { hex: string } | string | number
  functionSelector?: string
  parameter?: string
  feeLimit?: number
}

/** What the page needs of a wallet. */
export interface PageWallet {
  kind: 'injected' | 'test'
  address: string
  /** sends one transaction: resolves with its hash once the wallet signed it, and `mined` once it is mined */
  send(tx: ApiTransaction): Promise<{ hash: string; mined: Promise<void> }>
  /** signs the EIP-712 permit of /pay's `approvalPermitPayload` (eth_signTypedData_v4); absent: the wallet approves */
  signPermit?(payload: string): Promise<string>
}

/** eth_signTypedData_v4's argument for a permit payload ({domain, types, values}): EIP712Domain spelled out. */
function typedDataV4(payload: string): string {
  const { domain, types, values } = JSON.parse(payload) as {
    domain: Record<string, unknown>
    types: Record<string, unknown>
    values: Record<string, unknown>
  }
  const fields: Record<string, string> = {
    name: 'string',
    version: 'string',
    chainId: 'uint256',
    verifyingContract: 'address',
  }
  const EIP712Domain = Object.keys(fields)
    .filter((k) => k in domain)
    .map((name) => ({ name, type: fields[name] }))
  return JSON.stringify({ domain, types: { EIP712Domain, ...types }, primaryType: 'Permit', message: values })
}

interface Eip1193 {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>
}

/** What the page uses of a TronLink-style injected TronWeb (window.tronWeb, pointed at the sandbox's /tron). */
interface InjectedTronWeb {
  defaultAddress: { base58: string | false }
  transactionBuilder: {
    triggerSmartContract(
      to: string,
      selector: string,
      options: { feeLimit: number; rawParameter: string },
      parameters: unknown[],
      from: string,
    ): Promise<{ transaction: Record<string, unknown> & { txID: string } }>
  }
  trx: { sign(transaction: unknown): Promise<Record<string, unknown>> }
}

declare global {
  interface Window {
    ethereum?: Eip1193
    tronWeb?: InjectedTronWeb
    tronLink?: { request(args: { method: string }): Promise<unknown> }
  }
}

const valueHex = (v: ApiTransaction['value']) =>
  typeof v === 'object' ? v.hex : typeof v === 'number' ? `0x${v.toString(16)}` : v

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Whether the browser has an injected wallet (a TronLink-style one for a Tron link). */
export function hasInjectedWallet(tron = false): boolean {
  if (tron) return typeof window.tronWeb?.transactionBuilder?.triggerSmartContract === 'function'
  return typeof window.ethereum?.request === 'function'
}

/** Sends a signed Tron step through the link's broadcast route (sponsored: no TRX needed); answers its txid. */
async function broadcastTron(token: string, signedTransaction: unknown): Promise<string> {
  const res = await fetch(`secure-payments/${token}/tron/broadcast`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ signedTransaction }),
  })
  const result = await res.json()
  if (!res.ok) throw new Error(result.message ?? 'The TRON transaction was refused')
  return result.txid as string
}

/**
 * Connects a TronLink-style wallet: asks TronLink for the account (tron_requestAccounts) when it is there, builds
 * each step with the injected TronWeb, has it signed there and broadcasts it through the link.
 */
export async function connectTron(token: string): Promise<PageWallet> {
  const tronWeb = window.tronWeb!
  if (window.tronLink) await window.tronLink.request({ method: 'tron_requestAccounts' })
  const address = tronWeb.defaultAddress.base58
  if (!address) throw new Error('The Tron wallet shared no account')
  return {
    kind: 'injected',
    address,
    async send(tx) {
      const { transaction } = await tronWeb.transactionBuilder.triggerSmartContract(
        tx.to,
        tx.functionSelector!,
        { feeLimit: tx.feeLimit!, rawParameter: tx.parameter! },
        [],
        address,
      )
      const hash = await broadcastTron(token, await tronWeb.trx.sign(transaction))
      return { hash, mined: Promise.resolve() }
    },
  }
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
    async signPermit(payload) {
      return (await provider.request({
        method: 'eth_signTypedData_v4',
        params: [address, typedDataV4(payload)],
      })) as string
    },
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
