// The door of the batch-payouts resource: the only file of it that other rooms (other resources, the route table, the
// control plane, the sandbox, tests) import.
export { buildFundedBatchPayout } from './model.ts'
export { batchPayoutRoutes } from './routes.ts'
