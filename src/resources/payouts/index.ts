// The public module of the payouts resource: what other resources may use of it.
export { payoutOfChildRequest } from './execution.ts'
