// The request pipeline's door: the dispatcher both transports call, route matching, and the
// middlewares the sandbox's assembly chains (src/sandbox/dispatcher.ts sets their order).
export { createDispatcher } from './dispatch.ts'
export { faultMiddleware } from './middlewares/faults.ts'
export { journalMiddleware } from './middlewares/journal.ts'
export { missingNetworks, networkMiddleware } from './middlewares/networks-on-use.ts'
export { documentedRateLimitMiddleware, type RateLimitMode } from './middlewares/rate-limit.ts'
export { scenarioMiddleware } from './middlewares/scenario.ts'
export { CORS_ALLOWED_HEADERS } from './render.ts'
export { createRouter } from './router.ts'
