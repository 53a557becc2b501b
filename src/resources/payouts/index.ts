// The door of the payouts resource: the only file of it that other rooms (other resources, the route table, the
// control plane, the sandbox, tests) import.
export { payoutOfChildRequest } from './execution.ts'
export { activatePayout, getPayout, updatePayout } from './lifecycle.ts'
export { createOneTimePayout, createRecurringPayout } from './model.ts'
export { payoutRoutes } from './routes.ts'
export { PayoutBody } from './schema.ts'
export { payoutState } from './tables.ts'
