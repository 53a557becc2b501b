// The door of the commerce-payments resource: the only file of it that other rooms (other resources, the route table, the
// control plane, the sandbox, tests) import.
export { applyEscrowEvents } from './escrow-events.ts'
export { commerceSummary, listCommercePayments, statusOf } from './model.ts'
export { commercePaymentRoutes } from './routes.ts'
