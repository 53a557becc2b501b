// The door of the secure-payments resource: the only file of it that other rooms (other resources, the route table, the
// control plane, the sandbox, tests) import.
export { createSecurePayment } from './create.ts'
export { followPaymentEvent, recordUserEvent } from './events.ts'
export { KYT_FLAGGED_TEST_ADDRESSES, KYT_RESULTS_KEPT } from './kyt.ts'
export { securePageRoutes } from './page-routes.ts'
export { securePaymentCalldata } from './pay.ts'
export { securePaymentRoutes } from './routes.ts'
export { CreateSecurePaymentBody } from './schema.ts'
export { securePaymentState } from './tables.ts'
export { indexSecurePaymentTokens } from './token-index.ts'
