// The public module of the batch-payouts resource: what other resources may use of it.
export type { BatchFunding } from './model.ts'
export { buildBatchPayout, buildFundedBatchPayout } from './model.ts'
