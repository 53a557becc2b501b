// The door of the pay resource: the only file of it that other rooms (other resources, the route table, the
// control plane, the sandbox, tests) import.
export { approveTransaction, NO_FEE_ADDRESS } from './calldata.ts'
export { quoteConversion } from './conversion.ts'
export { CHAIN_TO_NETWORK } from './crosschain-source.ts'
export { buildPayment, type PayServiceNames } from './model.ts'
export { payRoutes } from './routes.ts'
