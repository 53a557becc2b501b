// The public module of the batch-payouts resource: what other resources may use of it.
export { buildBatchPayout } from './model.ts'
