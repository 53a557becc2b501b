// The public module of the payers resource: what other resources may use of it.
export { isCompliant } from './compliance.ts'
export { PayerNotFoundError } from './errors.ts'
export { getPayer, indexPayerPages, resumeKycReview } from './model.ts'
export { payerState } from './tables.ts'
