// The door of the payment-details resource: the only file of it that other rooms (other resources, the route table, the
// control plane, the sandbox, tests) import.
export { PaymentDetailNotFoundError } from './errors.ts'
export {
  createPaymentDetail,
  findPaymentDetail,
  forcePaymentDetailStatus,
} from './model.ts'
export { paymentDetailControlRoutes, paymentDetailRoutes } from './routes.ts'
export { CreatePaymentDetailBody, type PaymentDetailRecord } from './schema.ts'
export { paymentDetailState } from './tables.ts'
