import { routesUsing } from '../../contract/route.ts'
import type { Services } from '../services.ts'
import { endSession, openSession } from './model.ts'
import { SessionBody, SessionParams } from './schema.ts'

const defineRoute = routesUsing<Services<'directory' | 'ids' | 'worlds'>>()

/** `POST /__sandbox/sessions` issues a Bearer token for endpoint 15 and its neighbours; DELETE ends it. */
export const sessionRoutes = [
  defineRoute({
    method: 'POST',
    path: '/__sandbox/sessions',
    credentials: ['api-key'],
    surface: 'control',
    summary: "Issues a session token (Authorization: Bearer) bound to the caller's tenant",
    statuses: [201, 429],
    body: SessionBody,
    handler(ctx, { body }) {
      return { status: 201, body: openSession(ctx, body) }
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/__sandbox/sessions/:token',
    credentials: ['api-key'],
    surface: 'control',
    summary: "Ends one of the caller's session tokens",
    statuses: [200, 404],
    params: SessionParams,
    handler(ctx, { params }) {
      endSession(ctx, params.token)
      return { status: 200, body: { success: true } }
    },
  }),
]
