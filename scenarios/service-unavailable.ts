import { defineScenario } from '../src/control/scenarios/define.ts'

export default defineScenario({
  name: 'service-unavailable',
  description:
    'Every API call answers 503 {statusCode:503,message:"Service Unavailable"} without doing anything; the control API keeps working.',
  creates: {},
  rules: { failureStatus: 503 },
})
