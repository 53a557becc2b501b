// The public module of the payment-details resource: what other resources may use of it.
export { PaymentDetailNotFoundError } from './errors.ts'
export { findPaymentDetail, resumeDetailReview } from './model.ts'
export { paymentDetailState } from './tables.ts'
