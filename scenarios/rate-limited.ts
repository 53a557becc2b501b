import { defineScenario } from '../src/control/scenarios/define.ts'

// The throttler of the service: a fixed window on the tenant clock, so a test can move past it with
// POST /__sandbox/clock/advance instead of waiting.
export default defineScenario({
  name: 'rate-limited',
  description:
    'At most 2 API calls per 60 s of the tenant clock; the others answer 429 {statusCode:429,message:"ThrottlerException: Too Many Requests"} with Retry-After (seconds to the next window).',
  creates: {},
  rules: { rateLimit: { limit: 2, windowSeconds: 60 } },
})
