import { z } from 'zod'
import { routesUsing } from '../../contract/route.ts'
import type { Services } from '../services.ts'
import {
  activeDestinationOf,
  createDestination,
  deactivateDestination,
  destinationBody,
  getDestination,
  issueSigningData,
} from './model.ts'
import {
  ActiveDestinationQuery,
  PayeeDestinationResponse,
  SignedBody,
  SigningDataQuery,
  SigningDataResponse,
} from './schema.ts'

const defineRoute = routesUsing<Services<'currencies' | 'ids'>>()

const IdParams = z.object({ destinationId: z.string().min(1) })

/** `/v2/payee-destination`: EIP-712 signing data, signed creation and deactivation, lookups (V2 0.13.0). */
export const payeeDestinationRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v2/payee-destination/signing-data',
    credentials: ['api-key', 'client-id'],
    surface: 'api',
    summary: 'EIP-712 signing data with a fresh single-use nonce',
    statuses: [200],
    query: SigningDataQuery,
    responses: { 200: SigningDataResponse },
    handler: (ctx, { query }) => ({ status: 200, body: issueSigningData(ctx, query) }),
  }),
  defineRoute({
    method: 'POST',
    path: '/v2/payee-destination',
    credentials: ['api-key', 'client-id'],
    surface: 'api',
    summary: 'Create a payee destination from a signed nonce',
    statuses: [201],
    body: SignedBody,
    responses: { 201: PayeeDestinationResponse },
    async handler(ctx, { body }) {
      return { status: 201, body: destinationBody(await createDestination(ctx, body)) }
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v2/payee-destination',
    credentials: ['api-key', 'client-id'],
    surface: 'api',
    summary: "The wallet's active payee destination, or null",
    statuses: [200],
    query: ActiveDestinationQuery,
    responses: { 200: PayeeDestinationResponse.nullable() },
    handler(ctx, { query }) {
      const record = activeDestinationOf(ctx.world, query.walletAddress)
      return { status: 200, body: record ? destinationBody(record) : null }
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v2/payee-destination/:destinationId',
    credentials: ['api-key', 'client-id'],
    surface: 'api',
    summary: 'A payee destination by id (network:walletAddress:tokenAddress)',
    statuses: [200, 404],
    params: IdParams,
    responses: { 200: PayeeDestinationResponse },
    handler: (ctx, { params }) => ({
      status: 200,
      body: destinationBody(getDestination(ctx, params.destinationId)),
    }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v2/payee-destination/:destinationId',
    credentials: ['api-key', 'client-id'],
    surface: 'api',
    summary: 'Deactivate a payee destination with a signed nonce',
    statuses: [200],
    params: IdParams,
    body: SignedBody,
    responses: { 200: PayeeDestinationResponse },
    async handler(ctx, { params, body }) {
      return {
        status: 200,
        body: destinationBody(await deactivateDestination(ctx, params.destinationId, body)),
      }
    },
  }),
]
