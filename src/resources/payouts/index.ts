// The public module of the payouts resource: what other resources may use of it.
export { payoutOfChildRequest, scheduleNext } from './execution.ts'
export { payoutState } from './tables.ts'
