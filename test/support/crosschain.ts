// Helpers for tests that pay on the sandbox's chains: a wallet of a default account reached through the sandbox's own
// /rpc/{network} (over either transport), signing of a crosschain pay answer, and reading proxy logs by reference.
import {
  type Address,
  createPublicClient,
  defineChain,
  type Hex,
  http,
  keccak256,
  parseEventLogs,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import {
  erc20FeeProxyAbi,
  ethFeeProxyAbi,
  type LiveChain,
  sendApiTransactions,
} from '../../src/chain/index.ts'
import type { ApiTransaction } from './chain.ts'
import type { ApiClient } from './clients.ts'

/** A default account's wallet on one live chain, through the sandbox's JSON-RPC proxy of `client`'s transport. */
export function walletOn(client: ApiClient, chain: LiveChain, accountIndex: number) {
  const url = `${client.baseUrl}/rpc/${chain.network}`
  const viemChain = defineChain({
    id: chain.chainId,
    name: chain.network,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  })
  const account = privateKeyToAccount(chain.accounts[accountIndex]!.privateKey)
  const publicClient = createPublicClient({ chain: viemChain, transport: http(url), pollingInterval: 50 })
  return {
    account,
    publicClient,
    /** sends an API transaction object as a wallet would and waits for a successful receipt */
    async send(tx: ApiTransaction) {
      const [receipt] = await sendApiTransactions(chain, account, [tx], { rpcUrl: url })
      return receipt!
    },
  }
}

/** The crosschain pay answer as a client reads it. */
export interface CrosschainAnswer {
  paymentIntentId: string
  paymentIntent: string
  approvalPermitPayload?: string
  approvalCalldata?: { to: Address; data: Hex; value: string }
  metadata: { supportsEIP2612: boolean }
}

/** Signs the intent (and the permit when there is one) as easy-invoice does, and builds the send body. */
export async function signAnswer(
  account: ReturnType<typeof privateKeyToAccount>,
  answer: CrosschainAnswer,
  options: { withPermit?: boolean } = {},
) {
  const intent = JSON.parse(answer.paymentIntent)
  const signature = await account.signTypedData({
    domain: intent.domain,
    types: intent.types,
    primaryType: 'PermitBatchWitnessTransferFrom',
    message: intent.values,
  })
  const body: Record<string, unknown> = {
    signedPaymentIntent: {
      signature,
      nonce: intent.values.nonce.toString(),
      deadline: intent.values.deadline.toString(),
    },
  }
  if (answer.approvalPermitPayload && options.withPermit !== false) {
    const permit = JSON.parse(answer.approvalPermitPayload)
    body.signedApprovalPermit = {
      signature: await account.signTypedData({
        domain: permit.domain,
        types: permit.types,
        primaryType: 'Permit',
        message: permit.values,
      }),
      nonce: permit.values.nonce.toString(),
      deadline: (permit.values.deadline ?? permit.values.expiry).toString(),
    }
  }
  return body as {
    signedPaymentIntent: { signature: Hex; nonce: string; deadline: string }
    signedApprovalPermit?: { signature: Hex; nonce: string; deadline: string }
  }
}

/** ERC20FeeProxy logs on `chain` whose topic1 is keccak256(reference), decoded. */
export async function erc20PaymentLogs(chain: LiveChain, reference: Hex) {
  const logs = await chain.publicClient.getLogs({
    address: chain.contracts.ERC20FeeProxy!,
    fromBlock: 0n,
    toBlock: 'latest',
  })
  return parseEventLogs({ abi: erc20FeeProxyAbi, logs, eventName: 'TransferWithReferenceAndFee' }).filter(
    (l) => l.topics[1] === keccak256(reference),
  )
}

/** EthereumFeeProxy logs on `chain` whose topic1 is keccak256(reference), decoded. */
export async function ethPaymentLogs(chain: LiveChain, reference: Hex) {
  const logs = await chain.publicClient.getLogs({
    address: chain.contracts.EthereumFeeProxy!,
    fromBlock: 0n,
    toBlock: 'latest',
  })
  return parseEventLogs({ abi: ethFeeProxyAbi, logs, eventName: 'TransferWithReferenceAndFee' }).filter(
    (l) => l.topics[1] === keccak256(reference),
  )
}
