// What the dashboard shows of one key's world in one read: requests with their payments, recurring payouts,
// payers with their compliance, payment details and client IDs, and the key's webhooks. Read-only: every change
// the page makes goes through the API or the control API like any other client.
import type { World } from '../../contract/world.ts'
import { clientIdState } from '../../resources/client-ids/index.ts'
import { commerceSummary, listCommercePayments } from '../../resources/commerce-payments/index.ts'
import { complianceView, payerState } from '../../resources/payers/index.ts'
import { paymentDetailState } from '../../resources/payment-details/index.ts'
import { payoutState } from '../../resources/payouts/index.ts'
import { requestState, statusOf } from '../../resources/requests/index.ts'
import { securePaymentState } from '../../resources/secure-payments/index.ts'
import type { SandboxState } from '../services.ts'

const newestFirst = (a: { createdAt: string }, b: { createdAt: string }) =>
  a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0

/** The one value of the index of every request (GET /__sandbox/state pages through it). */
const everyRequest = () => 'all'

/** One page of a key's requests in GET /__sandbox/state (the list that grows with a key). */
export interface StatePage {
  limit: number
  offset: number
}

/** The state of a key's world as GET /__sandbox/state answers it: one page of its requests, newest first. */
export function dashboardState(
  shared: SandboxState,
  world: World,
  page: StatePage = { limit: 200, offset: 0 },
) {
  const details = paymentDetailState(world).paymentDetails.all()
  // the request a recurring payout was created with: its payments are its child requests', so it is never paid
  const payoutParents = new Map(
    payoutState(world)
      .recurringPayouts.all()
      .map((p) => [p.originalRequestId, p.id] as const),
  )
  // one page from the newest end of an index of every request (records enter in clock order): walks only the page
  const requests = requestState(world).requests.whereNewest(everyRequest, 'all', page.offset, page.limit)
  return {
    tenant: world.tenant,
    scenario: world.scenario,
    now: world.clock.now().toISOString(),
    requestsPage: { total: requests.total, limit: page.limit, offset: page.offset },
    requests: requests.page.map((r) => ({
      requestId: r.requestId,
      paymentReference: r.paymentReference,
      status: statusOf(shared, r),
      amount: r.amount,
      invoiceCurrency: r.invoiceCurrency,
      paymentCurrency: r.paymentCurrency,
      network: r.network,
      payee: r.payee,
      payer: r.payer,
      // who paid, as GET /v2/request/{id} answers it (payerAddress): the sender of the latest payment
      payerAddress: r.payments.at(-1)?.from ?? null,
      recurringPayoutId: payoutParents.get(r.requestId) ?? null,
      paymentAddress: r.paymentAddress,
      reference: r.reference,
      originalRequestId: r.originalRequestId,
      recurrence: r.recurrence,
      clientId: r.clientId,
      offrampSubStatus: r.offrampState?.subStatus ?? null,
      createdAt: r.createdAt,
      payments: r.payments.map((p) => ({
        type: p.type,
        amount: p.amount,
        paidAmount: p.paidAmount,
        feeAmount: p.feeAmount,
        from: p.from,
        txHash: p.txHash,
        blockNumber: p.blockNumber,
        network: p.network,
        chainId: p.chainId,
        timestamp: p.timestamp,
      })),
    })),
    payouts: payoutState(world)
      .recurringPayouts.all()
      .sort(newestFirst)
      .map((p) => ({
        id: p.id,
        status: p.status,
        network: p.network,
        amount: p.amount,
        invoiceCurrency: p.invoiceCurrency,
        paymentCurrency: p.paymentCurrency,
        payee: p.payee,
        payer: p.payer,
        frequency: p.frequency,
        totalPayments: p.totalPayments,
        processedPayments: p.processedPayments,
        lastPaymentDate: p.lastPaymentDate,
        nextPaymentDate: p.status === 'active' ? p.nextPaymentDate : null,
        failureCount: p.failureCount,
        failureReason: p.failureReason,
        originalRequestId: p.originalRequestId,
        createdAt: p.createdAt,
        payments: p.payments,
      })),
    securePayments: securePaymentState(world)
      .securePayments.all()
      .sort(newestFirst)
      .map((l) => ({
        token: l.token,
        status: l.status,
        paymentType: l.paymentType,
        flow: l.flow,
        network: l.network,
        currency: l.currency,
        requestIds: l.requestIds,
        payerAddress: l.payerAddress,
        combinedInto: l.combinedInto,
        createdAt: l.createdAt,
        expiresAt: l.expiresAt,
        completedAt: l.completedAt,
      })),
    payers: payerState(world)
      .payers.all()
      .sort(newestFirst)
      .map((p) => ({
        clientUserId: p.clientUserId,
        name: `${p.firstName} ${p.lastName}`,
        email: p.email,
        country: p.country,
        beneficiaryType: p.beneficiaryType,
        ...complianceView(p),
        createdAt: p.createdAt,
        paymentDetails: details
          .filter((d) => d.clientUserId === p.clientUserId)
          .map((d) => ({
            id: d.id,
            status: d.status,
            bankName: d.bankName,
            accountName: d.accountName,
            currency: d.currency,
            rails: d.rails,
            country: d.country,
            account: d.iban ?? d.accountNumber ?? d.ribNumber ?? null,
            createdAt: d.createdAt,
          })),
      })),
    clientIds: clientIdState(world)
      .clientIds.all()
      .sort(newestFirst)
      .map((c) => ({
        id: c.id,
        clientId: c.clientId,
        label: c.label,
        status: c.status,
        allowedDomains: c.allowedDomains,
        feePercentage: c.feePercentage,
        feeAddress: c.feeAddress,
        lastUsedAt: c.lastUsedAt,
        createdAt: c.createdAt,
      })),
    commercePayments: listCommercePayments(world).map((c) => ({
      requestId: c.requestId,
      paymentReference: c.paymentReference,
      ...commerceSummary(c),
      paymentCurrency: c.paymentCurrency,
      network: c.network,
      payer: c.payer,
      merchant: c.merchant,
      operator: c.operator,
      authorizationExpiry: new Date(c.authorizationExpiry * 1000).toISOString(),
      transitions: c.transitions,
      createdAt: c.createdAt,
    })),
    webhooks: shared.webhooks.registry
      .list(world.tenant)
      .map((w) => ({ id: w.id, url: w.url, isActive: w.isActive, createdAt: w.createdAt })),
  }
}

/** The keys the sandbox has seen (those with a world), with the scenarios they used. */
export function seenKeys(shared: SandboxState): { key: string; scenarios: string[]; requests: number }[] {
  const keys = new Map<string, { key: string; scenarios: string[]; requests: number }>()
  for (const world of shared.tenants.all()) {
    let entry = keys.get(world.tenant)
    if (!entry) {
      entry = { key: world.tenant, scenarios: [], requests: 0 }
      keys.set(world.tenant, entry)
    }
    entry.scenarios.push(world.scenario)
    entry.requests += requestState(world).requests.size
  }
  return [...keys.values()].sort((a, b) => a.key.localeCompare(b.key))
}
