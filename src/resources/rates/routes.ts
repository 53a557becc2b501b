// mounting the resource registers what its worlds take up again when they come back (beside its state)
import './resume.ts'
import { routesUsing } from '../../contract/route.ts'
import type { Services } from '../services.ts'
import { listRates, resetRates, setRates } from './model.ts'
import { SetRatesBody } from './schema.ts'

const defineRoute = routesUsing<Services<'chains' | 'conversion' | 'currencies'>>()

/** The sandbox's rate control: read, set (per tenant, on chain), reset to the fixture. */
export const rateRoutes = [
  defineRoute({
    method: 'GET',
    path: '/__sandbox/rates',
    credentials: ['api-key'],
    surface: 'control',
    summary: "The caller's conversion rates: USD prices and each executable route",
    statuses: [200],
    handler: (ctx) => ({ status: 200, body: listRates(ctx) }),
  }),
  defineRoute({
    method: 'POST',
    path: '/__sandbox/rates',
    credentials: ['api-key'],
    surface: 'control',
    summary: 'Sets rates for the caller ({rates:[{from, to, rate}]}: 1 from = rate to); the chain follows',
    statuses: [200],
    body: SetRatesBody,
    async handler(ctx, { body }) {
      return { status: 200, body: await setRates(ctx, body) }
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/__sandbox/rates',
    credentials: ['api-key'],
    surface: 'control',
    summary: "Drops the caller's rate overrides (the fixture's rates apply again)",
    statuses: [200],
    handler: (ctx) => ({ status: 200, body: resetRates(ctx) }),
  }),
]
