// A transaction as the dashboard shows it, read from a live chain: sender, recipient, value, status, the
// function called, and its logs decoded with Request Network's proxy events (and ERC-20 transfers), each
// contract named. A payment reference in a log links to the caller's request when the caller owns it.
import {
  type Abi,
  decodeEventLog,
  decodeFunctionData,
  erc20Abi,
  formatEther,
  getAddress,
  type Hash,
  type Hex,
  type Log,
} from 'viem'
import {
  batchConversionPaymentsAbi,
  commerceEscrowAbi,
  detectionAbi,
  erc20ConversionProxyAbi,
  erc20FeeProxyAbi,
  ethConversionProxyAbi,
  ethFeeProxyAbi,
  type LiveChain,
  recurringProxyAbi,
  transactionWithReceipt,
} from '../../chain/index.ts'
import { NotFoundError } from '../../contract/sandbox-error.ts'
import type { World } from '../../contract/world.ts'
import { requestState } from '../../resources/requests/index.ts'
import type { SandboxState } from '../services.ts'

/** 404 for a transaction no live chain knows. */
export class TransactionNotFoundError extends NotFoundError {
  override name = 'TransactionNotFoundError'
  constructor(hash: string) {
    super(`Transaction ${hash} not found on the live chains`)
  }
}

const eventAbi = [
  ...detectionAbi,
  ...commerceEscrowAbi.filter((item) => item.type === 'event'),
  ...erc20Abi.filter((item) => item.type === 'event'),
] as Abi
/** ABIs a sandbox transaction may call, tried in order. */
const callAbis: Abi[] = [
  erc20FeeProxyAbi,
  ethFeeProxyAbi,
  erc20ConversionProxyAbi,
  ethConversionProxyAbi,
  batchConversionPaymentsAbi,
  recurringProxyAbi,
  commerceEscrowAbi,
  erc20Abi,
]

const plain = (value: unknown): unknown =>
  typeof value === 'bigint'
    ? value.toString()
    : Array.isArray(value)
      ? value.map(plain)
      : value && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]))
        : value

function namesOf(chain: LiveChain): Map<string, string> {
  const names = new Map<string, string>()
  for (const [name, address] of Object.entries(chain.contracts)) names.set(address.toLowerCase(), name)
  // one address may carry two ids (USDC-sepolia and fUSDC-sepolia): the request's own id wins (readTransaction),
  // else the first, never a faucet alias over the token's name
  for (const [id, address] of Object.entries(chain.tokens)) {
    const known = names.get(address.toLowerCase())
    if (!known || (/^f[A-Z]/.test(known) && !/^f[A-Z]/.test(id))) names.set(address.toLowerCase(), id)
  }
  for (const [i, a] of chain.accounts.entries()) names.set(a.address.toLowerCase(), `anvil account ${i}`)
  for (const [role, account] of Object.entries(chain.roles))
    names.set(account.address.toLowerCase(), `sandbox ${role}`)
  return names
}

function decodeCall(input: Hex): { functionName: string; args: unknown } | null {
  if (input === '0x') return null
  for (const abi of callAbis) {
    try {
      const { functionName, args } = decodeFunctionData({ abi, data: input })
      return { functionName, args: plain(args) }
    } catch {
      // not this contract's function
    }
  }
  return null
}

/** The token a log's amounts (`value`, `amount`, `feeAmount`) are counted in, as the currency list gives it. */
export interface LogUnits {
  currency: string
  symbol: string
  decimals: number
}

/**
 * The units of a decoded log's amounts: the token that emitted an ERC-20 event, a proxy event's `tokenAddress`, the
 * chain's native currency for the ETH proxy's payment event; none for a conversion (its amount is in the request's
 * currency) or an unknown token.
 */
function unitsOf(
  shared: SandboxState,
  chain: LiveChain,
  event: string,
  address: string,
  args: Record<string, unknown>,
  names: Map<string, string>,
): LogUnits | undefined {
  const token =
    event === 'Transfer' || event === 'Approval'
      ? address
      : typeof args.tokenAddress === 'string'
        ? args.tokenAddress
        : undefined
  const currency =
    token !== undefined
      ? shared.currencies.byId(names.get(token.toLowerCase()) ?? '')
      : event === 'TransferWithReferenceAndFee'
        ? shared.currencies.all.find((c) => c.type === 'ETH' && c.network === chain.network)
        : undefined
  return currency
    ? { currency: currency.id, symbol: currency.symbol, decimals: currency.decimals }
    : undefined
}

function decodeLog(
  shared: SandboxState,
  world: World,
  chain: LiveChain,
  log: Log,
  names: Map<string, string>,
) {
  const base = {
    logIndex: log.logIndex,
    address: getAddress(log.address),
    contract: names.get(log.address.toLowerCase()) ?? null,
  }
  try {
    const { eventName, args } = decodeEventLog({ abi: eventAbi, data: log.data, topics: log.topics })
    // the payment reference is an indexed `bytes`: the topic is its hash, matched against the caller's requests
    const topic = log.topics[1]
    const entry =
      topic &&
      (eventName === 'TransferWithReferenceAndFee' || eventName === 'TransferWithConversionAndReference')
        ? shared.paymentReferences.lookupIn(topic, world)
        : undefined
    // the commerce escrow's events carry the 8 reference bytes themselves
    const bytes8 = (args as unknown as { paymentReference?: unknown } | undefined)?.paymentReference
    const escrowReference =
      !entry && typeof bytes8 === 'string'
        ? requestState(world).requestsByReference.get(bytes8.toLowerCase())
        : undefined
    const requestId = entry?.requestId ?? escrowReference
    const request = requestId ? requestState(world).requests.get(requestId) : undefined
    const plainArgs = plain(args) as Record<string, unknown>
    const units = eventName ? unitsOf(shared, chain, eventName, log.address, plainArgs, names) : undefined
    return {
      ...base,
      event: eventName,
      args: plainArgs,
      ...(units ? { units } : {}),
      ...(request ? { requestId: request.requestId, paymentReference: request.paymentReference } : {}),
    }
  } catch {
    return { ...base, event: null, topics: log.topics, data: log.data }
  }
}

/** The logs decoded, the tokens of the requests they pay named as those requests name them. */
function decodeLogs(
  shared: SandboxState,
  world: World,
  chain: LiveChain,
  logs: Log[],
  names: Map<string, string>,
) {
  const first = logs.map((log) => decodeLog(shared, world, chain, log, names))
  let renamed = false
  for (const log of first) {
    const request =
      'requestId' in log && log.requestId ? requestState(world).requests.get(log.requestId) : undefined
    const token = request ? chain.tokens[request.paymentCurrency] : undefined
    if (request && token && names.get(token.toLowerCase()) !== request.paymentCurrency) {
      names.set(token.toLowerCase(), request.paymentCurrency)
      renamed = true
    }
  }
  return renamed ? logs.map((log) => decodeLog(shared, world, chain, log, names)) : first
}

/** Reads a transaction and its receipt from the live chain that has it (or `network`'s). */
export async function readTransaction(shared: SandboxState, world: World, hash: Hash, network?: string) {
  const candidates = network
    ? [shared.chains.get(network)].filter((c) => c !== undefined)
    : [...shared.chains.values()]
  for (const chain of candidates) {
    const found = await transactionWithReceipt(chain, hash)
    if (!found) continue
    const { transaction: tx, receipt, timestamp } = found
    const names = namesOf(chain)
    return {
      network: chain.network,
      chainId: chain.chainId,
      hash: tx.hash,
      status: receipt ? receipt.status : 'pending',
      blockNumber: tx.blockNumber === null ? null : Number(tx.blockNumber),
      blockHash: tx.blockHash,
      timestamp: timestamp?.toISOString() ?? null,
      from: getAddress(tx.from),
      fromName: names.get(tx.from.toLowerCase()) ?? null,
      to: tx.to ? getAddress(tx.to) : null,
      toName: tx.to ? (names.get(tx.to.toLowerCase()) ?? null) : null,
      value: tx.value.toString(),
      valueEth: formatEther(tx.value),
      gasUsed: receipt ? receipt.gasUsed.toString() : null,
      call: decodeCall(tx.input),
      input: tx.input,
      logs: receipt ? decodeLogs(shared, world, chain, receipt.logs, names) : [],
    }
  }
  throw new TransactionNotFoundError(hash)
}
