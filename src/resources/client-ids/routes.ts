import { z } from 'zod'
import { routesUsing } from '../../contract/route.ts'
import type { Services } from '../services.ts'
import { createClientId, getClientId, listClientIds, revokeClientId, updateClientId } from './model.ts'
import { type ClientIdRecord, CreateClientIdBody, UpdateClientIdBody } from './schema.ts'

const defineRoute = routesUsing<Services<'directory' | 'ids'>>()

const IdParams = z.object({ id: z.string().min(1) })

/** The settings every full view carries. */
function settings(r: ClientIdRecord) {
  return {
    id: r.id,
    clientId: r.clientId,
    label: r.label,
    allowedDomains: r.allowedDomains,
    feePercentage: r.feePercentage,
    feeAddress: r.feeAddress,
    operatorWalletAddress: r.operatorWalletAddress,
    payeeDestinationId: r.payeeDestinationId ?? null,
    defaultPreApprovalExpiry: r.defaultPreApprovalExpiry,
    defaultAuthorizationExpiry: r.defaultAuthorizationExpiry,
    status: r.status,
  }
}

/** `GET /v2/client-ids/{id}` (and DELETE): everything, with createdAt, updatedAt and lastUsedAt. */
function fullView(r: ClientIdRecord) {
  return { ...settings(r), createdAt: r.createdAt, updatedAt: r.updatedAt, lastUsedAt: r.lastUsedAt }
}

/**
 * Client IDs (endpoint 15 and its neighbours): API key or session token, never a client ID itself; the Auth API's
 * `/v1/client-ids` (api-features/client-id-management.mdx) takes the `session_token` cookie of a wallet (or email)
 * login and manages that account's client IDs.
 */
export const clientIdRoutes = (['/v2/client-ids', '/v1/client-ids'] as const).flatMap((base) => [
  defineRoute({
    method: 'POST',
    path: base,
    credentials: base === '/v1/client-ids' ? ['portal-session'] : ['api-key', 'session'],
    surface: 'api',
    summary: 'Create a client ID',
    statuses: [201],
    body: CreateClientIdBody,
    async handler(ctx, { body }) {
      const r = await createClientId(ctx, body)
      return { status: 201, body: { ...settings(r), createdAt: r.createdAt } }
    },
  }),
  defineRoute({
    method: 'GET',
    path: base,
    credentials: base === '/v1/client-ids' ? ['portal-session'] : ['api-key', 'session'],
    surface: 'api',
    summary: 'List client IDs',
    statuses: [200],
    handler(ctx) {
      return {
        status: 200,
        body: listClientIds(ctx).map((r) => ({
          id: r.id,
          clientId: r.clientId,
          label: r.label,
          allowedDomains: r.allowedDomains,
          status: r.status,
          createdAt: r.createdAt,
          lastUsedAt: r.lastUsedAt,
        })),
      }
    },
  }),
  defineRoute({
    method: 'GET',
    path: `${base}/:id`,
    credentials: base === '/v1/client-ids' ? ['portal-session'] : ['api-key', 'session'],
    surface: 'api',
    summary: 'Get a client ID',
    statuses: [200, 404],
    params: IdParams,
    handler(ctx, { params }) {
      return { status: 200, body: fullView(getClientId(ctx, params.id)) }
    },
  }),
  defineRoute({
    method: 'PUT',
    path: `${base}/:id`,
    credentials: base === '/v1/client-ids' ? ['portal-session'] : ['api-key', 'session'],
    surface: 'api',
    summary: 'Update a client ID',
    statuses: [200, 404],
    params: IdParams,
    body: UpdateClientIdBody,
    async handler(ctx, { params, body }) {
      const r = await updateClientId(ctx, params.id, body)
      return { status: 200, body: { ...settings(r), updatedAt: r.updatedAt } }
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: `${base}/:id`,
    credentials: base === '/v1/client-ids' ? ['portal-session'] : ['api-key', 'session'],
    surface: 'api',
    summary: 'Revoke a client ID (final)',
    statuses: [200, 404],
    params: IdParams,
    async handler(ctx, { params }) {
      return { status: 200, body: fullView(await revokeClientId(ctx, params.id)) }
    },
  }),
])
