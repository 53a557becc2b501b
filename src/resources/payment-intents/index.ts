// The public module of the payment-intents resource: what other resources may use of it.

export { sendPaymentIntent } from './model.ts'
export { SignedData } from './schema.ts'
export { resumeSettlements } from './settle.ts'
export { intentState } from './tables.ts'
export { intentTypedData, permitTypedData, recoverPermitSigner } from './typed-data.ts'
