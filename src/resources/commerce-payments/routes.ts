import { routesUsing } from '../../contract/route.ts'
import type { Services } from '../services.ts'
import { actionCalldata, authorizeCalldata } from './calldata.ts'
import { execute } from './execute.ts'
import { commerceStatus } from './model.ts'
import {
  ActionCalldataResponse,
  AuthorizeCalldataBody,
  AuthorizeCalldataResponse,
  CaptureBody,
  CommerceParams,
  CommerceStatusResponse,
  ExecuteResponse,
  RefundBody,
  VoidBody,
} from './schema.ts'

const defineRoute =
  routesUsing<
    Services<
      | 'currencies'
      | 'ids'
      | 'offrampAddress'
      | 'paymentReferences'
      | 'chains'
      | 'operator'
      | 'events'
      | 'worlds'
      | 'log'
    >
  >()

const CREDENTIALS = ['api-key', 'client-id'] as const
/**
 * Capture and void make the API operator send the escrow call with the caller's terms (a capture's fee receiver):
 * the secret API key only, never the client ID a checkout page shows to anyone.
 */
const OPERATOR_CREDENTIALS = ['api-key'] as const

/** `/v2/commerce-payments` (preview): authorize, capture and void through the sandbox's escrow, and the status. */
export const commercePaymentRoutes = [
  defineRoute({
    method: 'POST',
    path: '/v2/commerce-payments/authorize/calldata',
    credentials: CREDENTIALS,
    surface: 'api',
    summary: "Create a commerce payment and the payer's escrow authorization calldata",
    statuses: [200, 400],
    body: AuthorizeCalldataBody,
    responses: { 200: AuthorizeCalldataResponse },
    handler: async (ctx, { body }) => ({ status: 200, body: await authorizeCalldata(ctx, body) }),
  }),
  defineRoute({
    method: 'POST',
    path: '/v2/commerce-payments/:requestId/authorize',
    credentials: CREDENTIALS,
    surface: 'api',
    summary: "Execute the authorization: the API operator moves the payer's approved funds into escrow",
    statuses: [200, 400, 404, 409],
    params: CommerceParams,
    body: VoidBody,
    responses: { 200: ExecuteResponse },
    handler: async (ctx, { params }) => ({
      status: 200,
      body: await execute(ctx, params.requestId, 'authorize', undefined),
    }),
  }),
  defineRoute({
    method: 'POST',
    path: '/v2/commerce-payments/:requestId/capture/calldata',
    credentials: CREDENTIALS,
    surface: 'api',
    summary: "Capture calldata (the operator's transaction paying the merchant from escrow)",
    statuses: [200, 400, 404, 409],
    params: CommerceParams,
    body: CaptureBody.optional(),
    responses: { 200: ActionCalldataResponse },
    handler: async (ctx, { params, body }) => ({
      status: 200,
      body: await actionCalldata(ctx, params.requestId, 'capture', body ?? {}),
    }),
  }),
  defineRoute({
    method: 'POST',
    path: '/v2/commerce-payments/:requestId/capture',
    credentials: OPERATOR_CREDENTIALS,
    surface: 'api',
    summary: 'Execute a capture: the API operator pays the merchant from escrow',
    statuses: [200, 400, 404, 409],
    params: CommerceParams,
    body: CaptureBody.optional(),
    responses: { 200: ExecuteResponse },
    handler: async (ctx, { params, body }) => ({
      status: 200,
      body: await execute(ctx, params.requestId, 'capture', body ?? {}),
    }),
  }),
  defineRoute({
    method: 'POST',
    path: '/v2/commerce-payments/:requestId/void/calldata',
    credentials: CREDENTIALS,
    surface: 'api',
    summary: "Void calldata (the operator's transaction returning the held funds to the payer)",
    statuses: [200, 400, 404, 409],
    params: CommerceParams,
    body: VoidBody,
    responses: { 200: ActionCalldataResponse },
    handler: async (ctx, { params }) => ({
      status: 200,
      body: await actionCalldata(ctx, params.requestId, 'void', undefined),
    }),
  }),
  defineRoute({
    method: 'POST',
    path: '/v2/commerce-payments/:requestId/void',
    credentials: OPERATOR_CREDENTIALS,
    surface: 'api',
    summary: 'Execute a void: the API operator returns the held funds to the payer',
    statuses: [200, 400, 404, 409],
    params: CommerceParams,
    body: VoidBody,
    responses: { 200: ExecuteResponse },
    handler: async (ctx, { params }) => ({
      status: 200,
      body: await execute(ctx, params.requestId, 'void', undefined),
    }),
  }),
  defineRoute({
    method: 'GET',
    path: '/v2/commerce-payments/:requestId/status',
    credentials: CREDENTIALS,
    surface: 'api',
    summary: 'The current state of a commerce payment, read from the escrow',
    statuses: [200, 400, 404],
    params: CommerceParams,
    responses: { 200: CommerceStatusResponse },
    handler: async (ctx, { params }) => ({ status: 200, body: await commerceStatus(ctx, params.requestId) }),
  }),
  defineRoute({
    method: 'POST',
    path: '/v2/commerce-payments/:requestId/refund/calldata',
    credentials: CREDENTIALS,
    surface: 'api',
    summary: "Refund calldata: the merchant's transactions returning captured funds to the payer",
    statuses: [200, 400, 404, 409],
    params: CommerceParams,
    body: RefundBody,
    responses: { 200: ActionCalldataResponse },
    handler: async (ctx, { params, body }) => ({
      status: 200,
      body: await actionCalldata(ctx, params.requestId, 'refund', body),
    }),
  }),
]
