// The request pipeline's door: the dispatcher both transports call, its stages and route matching, and the
// middlewares the sandbox's assembly chains (src/sandbox/dispatcher.ts sets their order).
export { createDispatcher, createStages, type DispatchOptions } from './dispatch.ts'
export { faultMiddleware } from './middlewares/faults.ts'
export { journalMiddleware } from './middlewares/journal.ts'
export { missingNetworks, type NetworksOnUse, networkMiddleware } from './middlewares/networks-on-use.ts'
export {
  DOCUMENTED_RATE_LIMIT,
  documentedRateLimitMiddleware,
  type RateLimitMode,
} from './middlewares/rate-limit.ts'
export { scenarioMiddleware } from './middlewares/scenario.ts'
export { CORS_ALLOWED_HEADERS } from './render.ts'
export { createRouter, type RouteMatch, type Router } from './router.ts'
export { STAGE_ORDER, type Stages } from './stages.ts'
