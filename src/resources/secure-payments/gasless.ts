// Gasless token approvals (EIP-2612), as api-features/secure-payment-pages.mdx#gasless-token-approvals-eip-2612
// describes them: for a token with `permit` (USDC-like), the payer signs an off-chain permit instead of sending the
// approve transaction; tokens without it (USDT, DAI) keep the approve. The real page batches the permit into a
// smart-account UserOperation; the sandbox has no bundler, so the same-chain /pay answer carries the permit's typed
// data (`approvalPermitPayload`, the cross-chain answer's key) and `POST /{token}/permit` takes the signature: the
// sandbox operator submits `permit` on chain (the payer spends no gas on it), then the payer sends only the payment.
import { type Address, type Hex, isAddressEqual, maxUint256 } from 'viem'
import { chainTime, eip2612Nonce, type LiveChain } from '../../chain/index.ts'
import type { World } from '../../contract/world.ts'
import type { CurrencyFixture } from '../currencies/index.ts'
import { permitTypedData, recoverPermitSigner } from '../payment-intents/index.ts'
import type { RequestRecord } from '../requests/index.ts'
import type { SecureServices } from './context.ts'
import { SecurePaymentRequestError } from './errors.ts'
import { checkPayer, linkRequests } from './model.ts'
import type { PermitBody, SecurePaymentRecord } from './schema.ts'

/** A signed permit stays valid this long after /pay handed it out. */
const PERMIT_TTL_S = 3_600

/** The permit-enabled token of a request on its live chain, or null (native, no permit, no chain). */
function permitToken(shared: SecureServices, record: RequestRecord) {
  const currency = shared.currencies.byId(record.paymentCurrency)
  if (currency?.type !== 'ERC20' || !currency.permit) return null
  const chain = shared.chains.get(record.network)
  const spender = chain?.contracts.ERC20FeeProxy
  const token = chain?.tokens[currency.id]
  if (!chain || !spender || !token) return null
  return { currency: currency as CurrencyFixture & { permit: string }, chain, spender, token }
}

async function typedData(
  found: {
    currency: CurrencyFixture & { permit: string }
    chain: LiveChain
    spender: Address
    token: Address
  },
  owner: Address,
  deadline: number,
) {
  return permitTypedData({
    token: found.token,
    name: found.currency.name,
    version: found.currency.permit,
    chainId: found.chain.chainId,
    owner,
    nonce: await eip2612Nonce(found.chain, found.token, owner),
    deadline,
    spender: found.spender,
  })
}

/** The permit `wallet` may sign instead of the approval of a same-chain /pay answer; null when the token has none. */
export async function gaslessApproval(
  shared: SecureServices,
  world: World,
  record: RequestRecord,
  wallet: Address,
) {
  const found = permitToken(shared, record)
  if (!found) return null
  // chain time can run ahead of this tenant's clock (another tenant advanced it): the deadline counts from the later
  const now = Math.max(Math.floor(world.clock.now().getTime() / 1000), await chainTime(found.chain))
  const deadline = now + PERMIT_TTL_S
  return JSON.stringify(await typedData(found, wallet, deadline), null, 2)
}

/** Checks the payer's signed permit for the link's token and has the sandbox operator submit it on chain. */
export async function submitGaslessPermit(
  shared: SecureServices,
  world: World,
  link: SecurePaymentRecord,
  body: PermitBody,
) {
  if (link.paymentType === 'batch')
    throw new SecurePaymentRequestError('A batch secure payment is approved with its approval transactions')
  checkPayer(link, body.wallet)
  const record = linkRequests(world, link)[0]!
  const found = permitToken(shared, record)
  if (!found || !shared.operator)
    throw new SecurePaymentRequestError(
      `${record.paymentCurrency} does not support EIP-2612 permit: send the approval transaction`,
    )
  const now = Math.max(Math.floor(world.clock.now().getTime() / 1000), await chainTime(found.chain))
  if (body.deadline <= now)
    throw new SecurePaymentRequestError('The permit deadline has passed: ask /pay for a new permit')
  const typed = await typedData(found, body.wallet as Address, body.deadline)
  const signer = await recoverPermitSigner(typed, body.signature as Hex).catch(() => null)
  if (!signer || !isAddressEqual(signer, body.wallet as Address))
    throw new SecurePaymentRequestError(
      'The permit signature is not the wallet’s signature of the permit /pay returned',
    )
  // the same signature sent twice at once: both recover before either is mined, the second reverts (nonce used)
  const txHash = await shared.operator
    .submitPermit(record.network, {
      token: found.token,
      owner: body.wallet as Address,
      spender: found.spender,
      value: maxUint256,
      deadline: BigInt(body.deadline),
      signature: body.signature as Hex,
    })
    .catch((error: Error) => {
      throw new SecurePaymentRequestError(`The permit was refused on chain: ${error.message.split('\n')[0]}`)
    })
  return {
    txHash,
    token: found.token,
    owner: body.wallet,
    spender: found.spender,
    value: maxUint256.toString(),
  }
}
