// `POST /v2/secure-payments`: each item is resolved to a payee and a currency (a payee destination, a payee and a
// currency id, or the caller's own destination), its request is created like any other, and one link covers them.

import {
  destinationForClientId,
  payeeDestinationState,
  resolveDestination,
} from '../payee-destinations/index.ts'
import type { RequestRecord } from '../requests/index.ts'
import { createRequest } from '../requests/index.ts'
import type { Ctx } from './context.ts'
import { SecurePaymentForbiddenError, SecurePaymentRequestError } from './errors.ts'
import { checkRedirect, storeLink } from './model.ts'
import { priceOrchestratorFees, refusePlanOverride } from './orchestrator-fees.ts'
import type { CreateSecurePaymentBody } from './schema.ts'

interface LinkItem {
  destinationId: string | null
  payee: string
  currency: string
  network: string
  amount: string
}

function resolveItem(ctx: Ctx, item: CreateSecurePaymentBody['requests'][number]): LinkItem {
  const { world } = ctx
  const shared = ctx
  if (item.destinationId) {
    const destination = resolveDestination(world, item.destinationId)
    if (!destination) {
      // another tenant's destination is not the caller's to use
      const elsewhere = [...shared.worlds.all()].some(
        (w) => w !== world && resolveDestination(w, item.destinationId!),
      )
      if (elsewhere)
        throw new SecurePaymentForbiddenError(
          'destinationId does not match the destination resolved for the caller',
        )
      throw new SecurePaymentRequestError(`No active payment destination ${item.destinationId}`)
    }
    // paired authentication: a client ID bound to a destination (hosted onboarding) pays only to that one
    const grant = ctx.caller?.orchestrator ? ctx.caller.clientId : undefined
    const bound = grant
      ? payeeDestinationState(world)
          .payeeDestinations.all()
          .findLast((d) => d.active && d.clientId === grant.clientId)
      : undefined
    if (bound && bound.destinationId !== destination.destinationId)
      throw new SecurePaymentRequestError('destinationId must be the destination bound to this client ID')
    return {
      destinationId: destination.destinationId,
      payee: destination.payee,
      currency: destination.currency,
      network: destination.network,
      amount: item.amount,
    }
  }
  if (item.payee || item.currency || item.invoiceCurrency || item.paymentCurrency) {
    const id = item.paymentCurrency ?? item.currency ?? item.invoiceCurrency
    if (!item.payee || !id)
      throw new SecurePaymentRequestError(
        'A request without destinationId needs payee with invoiceCurrency and paymentCurrency',
      )
    if (item.currency && item.paymentCurrency && item.currency !== item.paymentCurrency)
      throw new SecurePaymentRequestError('currency and paymentCurrency differ: send paymentCurrency only')
    // secure payments settle in the payment currency: an invoice in another currency would need a conversion
    if (item.invoiceCurrency && item.invoiceCurrency !== id)
      throw new SecurePaymentRequestError(
        `invoiceCurrency must equal paymentCurrency on a secure payment (${item.invoiceCurrency} and ${id}): the sandbox converts no secure payment`,
      )
    const currency = shared.currencies.byId(id)
    if (!currency || currency.type === 'ISO4217')
      throw new SecurePaymentRequestError(`Currency ${id} not found`)
    return {
      destinationId: null,
      payee: item.payee,
      currency: currency.id,
      network: currency.network,
      amount: item.amount,
    }
  }
  const grant = ctx.caller?.via === 'client-id' ? ctx.caller.clientId : undefined
  const fallback = grant
    ? destinationForClientId(world, grant)
    : payeeDestinationState(world)
        .payeeDestinations.all()
        .filter((d) => d.active)
        .map((d) => resolveDestination(world, d.id))
        .at(-1)
  if (!fallback) throw new SecurePaymentRequestError('No active payment destination for the platform')
  return {
    destinationId: fallback.destinationId,
    payee: fallback.payee,
    currency: fallback.currency,
    network: fallback.network,
    amount: item.amount,
  }
}

/** `POST /v2/secure-payments`: one request per item (destination or payee + currency), one link over them. */
export async function createSecurePayment(ctx: Ctx, body: CreateSecurePaymentBody) {
  refusePlanOverride(ctx, body.accessPolicy)
  checkRedirect(body)
  const items = body.requests.map((item) => resolveItem(ctx, item))
  const networks = new Set(items.map((i) => i.network))
  if (networks.size > 1)
    throw new SecurePaymentRequestError('All requests of a secure payment must be on the same network')
  if (networks.has('tron') && items.length > 1)
    throw new SecurePaymentRequestError(
      'Batch payments are not supported for TRON networks. Please submit individual payment requests.',
    )
  const grossAmounts = items.map((i) => ({ amount: i.amount, currency: i.currency }))
  const pricing = priceOrchestratorFees(ctx, 'get_paid', grossAmounts)
  const requests: RequestRecord[] = []
  for (const [index, item] of items.entries())
    requests.push(
      await createRequest(ctx, {
        amount: pricing.netAmounts[index]!,
        invoiceCurrency: item.currency,
        paymentCurrency: item.currency,
        payee: item.payee,
        ...(body.reference ? { reference: body.reference } : {}),
      }),
    )
  return storeLink(
    ctx,
    requests,
    items.map((i) => i.destinationId),
    {
      flow: 'get_paid',
      ...body,
      ...(pricing.orchestratorId ? { orchestrator: { pricing, grossAmounts } } : {}),
    },
  )
}
