// Safe multisig payments (api-features/safe-multisig-payments.mdx, release-notes/request-api.mdx 2026-Q2), through
// both transports on the local chain: a 1-of-1 and a 2-of-3 Safe created through the canonical SafeProxyFactory
// v1.4.1 the sandbox installs; `GET /v2/secure-payments/{token}/pay?isSafe=true&wallet=<Safe>` answers the
// transactions the Safe executes (here as one MultiSendCallOnly batch), owners sign the EIP-712 SafeTx hash, the
// intent records that `safeTxHash` (exactly one of txHash and safeTxHash), the link answers 423 `Secure payment is
// in progress` until execTransaction runs, and the payment the Safe made is detected (the Safe as payer).
import { type Address, erc20Abi, parseUnits, zeroAddress } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { expect, it } from 'vitest'
import { safeContracts } from '../../src/chain/safe.ts'
import { requestState } from '../../src/resources/requests/index.ts'
import { freshAddress, payer, until } from '../support/chain.ts'
import { describeTransports, newApiKey, useTransports } from '../support/clients.ts'
import { assertMatchesDocument } from '../support/openapi.ts'
import { createSafe, execSafeTx, multiSendOf, proposeSafeTx, safeAbi } from '../support/safe.ts'

const t = useTransports()
const PAGE = 'api-features/safe-multisig-payments.mdx'

describeTransports(
  'Safe multisig payments through %s',
  () => t,
  { http: 5, msw: 6 },
  (client, account) => {
    const clients = () => payer(t.sandbox, account)
    const fund = async (safe: Address, amount: string) => {
      const c = clients()
      const hash = await c.wallet.writeContract({
        address: t.sandbox.chain!.tokens['FAU-sepolia']!,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [safe, parseUnits(amount, 18)],
        chain: c.wallet.chain,
      })
      await c.publicClient.waitForTransactionReceipt({ hash })
    }
    const newLink = async (apiKey: string) => {
      const created = await client().call('POST', '/v2/secure-payments', {
        apiKey,
        body: {
          requests: [{ payee: freshAddress(), currency: 'FAU-sepolia', amount: '12.5' }],
          feePercentage: '2',
          feeAddress: freshAddress(),
        },
      })
      expect(created.status).toBe(201)
      return created.body as { token: string; requestIds: string[] }
    }

    /** The whole documented flow for a Safe of `owners` (threshold) signed by `signers`. */
    const paySafe = async (
      owners: Address[],
      threshold: number,
      signers: ReturnType<typeof privateKeyToAccount>[],
    ) => {
      const apiKey = newApiKey()
      const c = clients()
      const safe = await createSafe(c, owners, threshold)
      expect(
        await c.publicClient.readContract({ address: safe, abi: safeAbi, functionName: 'getThreshold' }),
      ).toBe(BigInt(threshold))
      await fund(safe, '13')
      const { token, requestIds } = await newLink(apiKey)

      // Step 1 (PAGE): Safe-ready calldata for wallet = the Safe
      const pay = await client().call('GET', `/v2/secure-payments/${token}/pay`, {
        apiKey,
        query: { wallet: safe, isSafe: 'true' },
      })
      expect(pay.status).toBe(200)
      assertMatchesDocument('v2', 'GET', '/v2/secure-payments/{token}/pay', 200, pay.body)
      // the Safe holds no ETH: no native-gas balance check for a Safe (PAGE, step 1)
      expect(pay.body.metadata.costBreakdown.fundingStatus).toMatchObject({
        hasEnoughPaymentToken: true,
        hasEnoughApprovalGas: true,
        hasEnoughOverall: true,
      })
      // it includes the required approval (the Safe never approved the proxy)
      expect(pay.body.metadata.needsApproval).toBe(true)
      expect(pay.body.transactions.length).toBe(2)

      // Step 2: propose on the Safe, owners sign the SafeTx hash
      const safeTx = multiSendOf(pay.body.transactions)
      const proposal = await proposeSafeTx(c, safe, safeTx, signers)
      const onChainHash = await c.publicClient.readContract({
        address: safe,
        abi: safeAbi,
        functionName: 'getTransactionHash',
        args: [
          safeTx.to,
          safeTx.value,
          safeTx.data,
          safeTx.operation,
          0n,
          0n,
          0n,
          zeroAddress,
          zeroAddress,
          proposal.nonce,
        ],
      })
      expect(onChainHash).toBe(proposal.safeTxHash)

      // Step 3: record the Safe transaction (PAGE: "with `safeTxHash` (instead of `txHash`)")
      const deadline = Math.floor(Date.now() / 1000) + 3600
      const intent = await client().call('POST', `/v2/secure-payments/${token}/intent`, {
        apiKey,
        body: {
          safeTxHash: proposal.safeTxHash,
          chain: 'ETHEREUM',
          token: 'USDC',
          safePaymentDeadline: deadline,
        },
      })
      expect(intent.status).toBe(200)
      assertMatchesDocument('v2', 'POST', '/v2/secure-payments/{token}/intent', 200, intent.body)
      expect(intent.body).toMatchObject({
        safeTxHash: proposal.safeTxHash,
        safePaymentDeadline: deadline,
        isListening: true,
      })
      expect(intent.body.txHash).toBeUndefined()

      // Step 4: 423 Locked with the documented body until the Safe executes
      const locked = await client().call('GET', `/v2/secure-payments/${token}`, { apiKey })
      expect(locked.status).toBe(423)
      expect(locked.body).toEqual({
        message: 'Secure payment is in progress',
        status: 'pending',
        requestStatuses: [
          {
            requestId: requestIds[0],
            hasBeenPaid: false,
            safeTxHash: proposal.safeTxHash,
            chainId: 11155111,
            safePaymentDeadline: deadline,
          },
        ],
      })
      const lockedPay = await client().call('GET', `/v2/secure-payments/${token}/pay`, {
        apiKey,
        query: { wallet: safe, isSafe: 'true' },
      })
      expect(lockedPay.status).toBe(423)

      // the Safe executes: ExecutionSuccess of that safeTxHash, then the detector sees the Safe's payment
      const executed = await execSafeTx(c, safe, safeTx, proposal.signatures)
      expect(executed.receipt.status).toBe('success')
      const success = executed.events.find((e) => e.eventName === 'ExecutionSuccess')
      expect(success?.args.txHash).toBe(proposal.safeTxHash)
      const { value: after } = await until(
        () => client().call('GET', `/v2/secure-payments/${token}`, { apiKey }),
        (res) => res.status === 409,
      )
      expect(after.body.message).toBe('Secure payment has already been completed')
      const status = await client().call('GET', `/v2/request/${requestIds[0]}`, { apiKey })
      expect(status.body.hasBeenPaid).toBe(true)
      const record = requestState(t.sandbox.shared.tenants.get(apiKey)).requests.get(requestIds[0]!)!
      expect(record.payments[0]!.payer?.toLowerCase()).toBe(safe.toLowerCase())
      expect(record.payments[0]!.txHash).toBe(executed.receipt.transactionHash)
      // "a `payment.confirmed` webhook fires as usual" (PAGE)
      const world = t.sandbox.shared.tenants.get(apiKey)
      await until(
        async () => world.events.map((e) => e.type),
        (types) => types.includes('payment.confirmed'),
      )
      return safe
    }

    it(`serves isSafe on the token routes and safeTxHash / safePaymentDeadline on the intent in /openapi.json (${PAGE})`, async () => {
      const doc = (await client().call('GET', '/openapi.json', { apiKey: null })).body
      for (const path of ['/v2/secure-payments/{token}', '/v2/secure-payments/{token}/pay']) {
        const op = doc.paths[path].get
        expect(op.parameters.find((p: { name: string }) => p.name === 'isSafe')).toMatchObject({
          in: 'query',
        })
        expect(Object.keys(op.responses)).toContain('423')
      }
      const intent = doc.paths['/v2/secure-payments/{token}/intent'].post
      const schema = intent.requestBody.content['application/json'].schema
      const ref = schema.$ref?.split('/').pop()
      const text = JSON.stringify(ref ? doc.components.schemas[ref] : schema)
      for (const field of ['txHash', 'safeTxHash', 'safePaymentDeadline'])
        expect(text).toContain(`"${field}"`)
    })

    it(`installs the Safe v1.4.1 contracts at their canonical addresses (${PAGE})`, async () => {
      const c = clients()
      for (const contract of Object.values(safeContracts())) {
        const code = await c.publicClient.getCode({ address: contract.address })
        expect(code).toBe(contract.code)
      }
    })

    it(`pays a link from a 1-of-1 Safe: isSafe calldata, safeTxHash intent, 423 until executed, then paid (${PAGE})`, async () => {
      const owner = clients().account
      await paySafe([owner.address], 1, [privateKeyToAccount(t.sandbox.chain!.accounts[account]!.privateKey)])
    })

    it(`pays a link from a 2-of-3 Safe signed by two owners, sent by a non-owner (${PAGE})`, async () => {
      const owners = [0, 1, 2].map(() => privateKeyToAccount(generatePrivateKey()))
      await paySafe(
        owners.map((o) => o.address),
        2,
        [owners[2]!, owners[0]!],
      )
    })

    it(`refuses what the page refuses: isSafe without wallet or with eoaWallet, both or neither hash (${PAGE})`, async () => {
      const apiKey = newApiKey()
      const { token } = await newLink(apiKey)
      const safe = freshAddress()
      const noWallet = await client().call('GET', `/v2/secure-payments/${token}/pay`, {
        apiKey,
        query: { isSafe: 'true' },
      })
      expect(noWallet.status).toBe(400)
      const withEoa = await client().call('GET', `/v2/secure-payments/${token}/pay`, {
        apiKey,
        query: { isSafe: 'true', wallet: safe, eoaWallet: freshAddress() },
      })
      expect(withEoa.status).toBe(400)
      expect(withEoa.body.message).toBe('isSafe=true is mutually exclusive with eoaWallet')
      // "Safe multisig payments are EVM-only ... requesting Safe calldata for a Tron network returns a 400"
      const tronLink = await client().call('POST', '/v2/secure-payments', {
        apiKey,
        body: {
          requests: [{ payee: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE', currency: 'USDT-tron', amount: '1' }],
        },
      })
      expect(tronLink.status).toBe(201)
      const onTron = await client().call('GET', `/v2/secure-payments/${tronLink.body.token}/pay`, {
        apiKey,
        query: { isSafe: 'true', wallet: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE' },
      })
      expect(onTron.status).toBe(400)
      expect(onTron.body.message).toBe('Safe multisig payments are not supported on Tron')
      const hash = `0x${'ab'.repeat(32)}`
      for (const body of [
        { txHash: hash, safeTxHash: hash, chain: 'ETHEREUM', token: 'USDC' },
        { chain: 'ETHEREUM', token: 'USDC' },
      ]) {
        const res = await client().call('POST', `/v2/secure-payments/${token}/intent`, { apiKey, body })
        expect(res.status).toBe(400)
        expect(res.body.message).toBe('Exactly one of txHash or safeTxHash must be provided')
      }
      const deadlineAlone = await client().call('POST', `/v2/secure-payments/${token}/intent`, {
        apiKey,
        body: { txHash: hash, chain: 'ETHEREUM', token: 'USDC', safePaymentDeadline: 1 },
      })
      expect(deadlineAlone.status).toBe(400)
      expect(deadlineAlone.body.message).toBe('safePaymentDeadline can only be sent alongside safeTxHash')
      // a deadline already passed: the link is not locked (the service stops tracking)
      const past = await client().call('POST', `/v2/secure-payments/${token}/intent`, {
        apiKey,
        body: { safeTxHash: hash, chain: 'ETHEREUM', token: 'USDC', safePaymentDeadline: 1 },
      })
      expect(past.status).toBe(200)
      expect((await client().call('GET', `/v2/secure-payments/${token}`, { apiKey })).status).toBe(200)
    })
  },
)
