import { z } from 'zod'
import { BOTH_VERSIONS, credentialsFor, routesUsing, versioned } from '../../contract/route.ts'
import type { Services } from '../services.ts'
import { conversionRoutes, listCurrencies } from './model.ts'
import { ConversionRoutesQuery, ConversionRoutesResponse, Currency, CurrencyQuery } from './schema.ts'

const defineRoute = routesUsing<Services<'chains' | 'conversion' | 'currencies'>>()

const listResponse = z.union([Currency, z.array(Currency)])

/** The memo key of the list with no filter (the key any query without filters would make). */
const WHOLE_LIST = JSON.stringify([undefined, undefined, undefined, undefined])

/** Routes of the currency list (endpoint 5 and its v2 twin) and conversion routes (endpoint 6). */
export const currencyRoutes = [
  ...versioned(BOTH_VERSIONS, (version) =>
    defineRoute({
      method: 'GET',
      path: `/${version}/currencies`,
      credentials: credentialsFor(version, ['api-key', 'client-id']),
      surface: 'api',
      summary: 'List supported currencies',
      statuses: [200, 404],
      query: CurrencyQuery,
      responses: { 200: listResponse },
      handler(ctx, { query }) {
        // errors (400/404) are thrown inside compute, so only answers are kept; the whole list (no filter, nearly
        // every call) under one constant key: no key text to build and hash a call
        const key =
          query.network === undefined &&
          query.symbol === undefined &&
          query.id === undefined &&
          query.firstOnly === undefined
            ? WHOLE_LIST
            : JSON.stringify([query.network, query.symbol, query.id, query.firstOnly])
        const { value, text, utf8 } = ctx.currencies.memo(key, () => listCurrencies(ctx, query))
        return { status: 200, body: value, text, utf8 }
      },
    }),
  ),
  ...versioned(BOTH_VERSIONS, (version) =>
    defineRoute({
      method: 'GET',
      path: `/${version}/currencies/:currencyId/conversion-routes`,
      credentials: credentialsFor(version, ['api-key', 'client-id']),
      surface: 'api',
      summary: 'List the conversion routes of a currency',
      statuses: [200, 404],
      params: z.object({ currencyId: z.string() }),
      query: ConversionRoutesQuery,
      responses: { 200: ConversionRoutesResponse },
      handler: (ctx, { params, query }) => ({
        status: 200,
        body: conversionRoutes(ctx, params.currencyId, query),
      }),
    }),
  ),
]
