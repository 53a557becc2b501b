// What the token routes and the lookup by request answer about a link (V2 0.13.0 shapes).
import type { NeutralRequest } from '../../contract/neutral.ts'
import type { World } from '../../contract/world.ts'
import { brandingForClientId } from '../orchestrators/index.ts'
import type { RequestRecord } from '../requests/index.ts'
import type { SecureServices } from './context.ts'
import { linkRequests, linkStatus, securePaymentUrl } from './model.ts'
import type { SecurePaymentRecord } from './schema.ts'

function destinationOf(
  shared: SecureServices,
  link: SecurePaymentRecord,
  record: RequestRecord,
  index: number,
) {
  const currency = shared.currencies.byId(record.paymentCurrency)!
  const payee = record.paymentAddress
  return {
    ...(link.destinationIds[index] ? { destinationId: link.destinationIds[index]! } : {}),
    payeeAddress: payee,
    tokenAddress: currency.address ?? '0x0000000000000000000000000000000000000000',
    walletAddress: payee,
    network: record.network,
    isMasked: false,
  }
}

/**
 * The branding the page applies, resolved now from the client ID's active orchestrator link (the client ID's row,
 * else the orchestrator's; whitelabel-branding.mdx), and the orchestrator of the link.
 */
function brandingOf(shared: SecureServices, link: SecurePaymentRecord) {
  const resolved = brandingForClientId(shared, link.clientId)
  const orchestratorId = link.orchestratorId ?? resolved?.orchestratorId ?? null
  if (resolved?.branding) {
    const { createdAt: _c, updatedAt: _u, ...row } = resolved.branding
    return { orchestratorId, branding: row, whitelabel: true }
  }
  return {
    orchestratorId,
    branding: { id: link.clientId ?? 'request-network', displayRequestBranding: true },
    whitelabel: false,
  }
}

/** `GET /v2/secure-payments/{token}`: the page's display data (single or batch variant). */
export function displayData(shared: SecureServices, world: World, link: SecurePaymentRecord) {
  const requests = linkRequests(world, link)
  const { orchestratorId, branding } = brandingOf(shared, link)
  const common = {
    paymentType: link.paymentType,
    status: linkStatus(shared, world, link),
    redirectUrl: link.redirectUrl,
    redirectLabel: link.redirectLabel,
    orchestratorId,
    branding,
    analytics: {
      creationTimestamp: link.createdAt,
      totalPaymentAmountUsd: link.feePlan.payerTotalAmountUsd,
      protocolFeeAmountUsd: '0.00',
      numberOfPaymentsExcludingFees: requests.length,
      destinationIds: link.destinationIds.filter((d): d is string => d !== null),
    },
    requestIds: link.requestIds,
    network: link.network,
    reference: link.reference,
    isPayeeAddressMasked: false,
    feePlan: link.feePlan,
  }
  const isNative = (r: RequestRecord) => shared.currencies.byId(r.paymentCurrency)?.type === 'ETH'
  if (link.paymentType === 'single') {
    const r = requests[0]!
    return {
      ...common,
      paymentType: 'single' as const,
      payee: r.paymentAddress,
      amount: r.amount,
      paymentCurrency: r.paymentCurrency,
      isNativeCurrency: isNative(r),
      destination: destinationOf(shared, link, r, 0),
    }
  }
  return {
    ...common,
    paymentType: 'batch' as const,
    payees: requests.map((r) => r.paymentAddress),
    amounts: requests.map((r) => r.amount),
    paymentCurrencies: requests.map((r) => r.paymentCurrency),
    isNativeCurrency: requests.map(isNative),
    destinations: requests.map((r, i) => destinationOf(shared, link, r, i)),
  }
}

/** `GET /v2/secure-payments?requestId=`: the link a request belongs to, with its state. */
export function lookupBody(
  shared: SecureServices,
  world: World,
  link: SecurePaymentRecord,
  request: NeutralRequest,
) {
  const requests = linkRequests(world, link)
  const status = linkStatus(shared, world, link)
  const destination = destinationOf(shared, link, requests[0]!, 0)
  const paid = status === 'completed'
  const { orchestratorId, whitelabel } = brandingOf(shared, link)
  return {
    token: link.token,
    securePaymentUrl: securePaymentUrl(request, link.token),
    status,
    paymentType: link.paymentType,
    createdAt: link.createdAt,
    expiresAt: link.expiresAt,
    redirectUrl: link.redirectUrl,
    redirectLabel: link.redirectLabel,
    completedAt: link.completedAt,
    // the payer recorded at completion, else the sender of the latest payment the detector saw
    payerAddress: link.payerAddress ?? requests.flatMap((r) => r.payments).at(-1)?.from ?? null,
    payerKytResults: link.kytResults ?? [],
    payeeKytResults: [],
    destination,
    claimedDestination: destination,
    orchestratorId,
    feePlan: link.feePlan,
    network: link.network,
    currency: link.currency,
    // how the latest recorded execution ran (same-chain until one is recorded)
    executionKind: link.intents.at(-1)?.executionKind ?? ('evm_same_chain' as const),
    identityMode: link.clientId ? ('client_id' as const) : ('manual_dashboard' as const),
    clientId: link.clientId,
    branding: {
      whitelabelEnabled: whitelabel,
      source: link.clientId ? ('client_id' as const) : ('request_network' as const),
    },
    // the 2026-Q1 flag telling outgoing payout links from incoming ones (release-notes/request-api.mdx)
    payout: link.flow === 'pay',
    childExecutable: status === 'pending',
    blockReason: paid
      ? ('already_paid' as const)
      : status === 'expired'
        ? ('secure_payment_expired' as const)
        : status === 'pending'
          ? null
          : ('secure_payment_not_pending' as const),
  }
}
