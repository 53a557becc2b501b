// The public module of the commerce-payments resource: what other resources, the sandbox and the control plane use.
export { applyEscrowEvents } from './escrow-events.ts'
export { commerceStatus, commerceSummary, listCommercePayments } from './model.ts'
export { commercePaymentRoutes } from './routes.ts'
export { CommercePaymentRecord } from './schema.ts'
export { commercePaymentState } from './tables.ts'
