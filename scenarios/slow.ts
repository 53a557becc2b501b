import { defineScenario } from '../src/control/scenarios/define.ts'

export default defineScenario({
  name: 'slow',
  description:
    'Every API call answers after 2 s (x-sandbox-delay on a call overrides it), for testing client timeouts and spinners.',
  creates: {},
  rules: { latencyMs: 2000 },
})
