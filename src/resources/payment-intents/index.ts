// The door of the payment-intents resource: the only file of it that other rooms (other resources, the route table, the
// control plane, the sandbox, tests) import.
export { sendPaymentIntent } from './model.ts'
export { paymentIntentRoutes } from './routes.ts'
export { SignedData } from './schema.ts'
export { intentState } from './tables.ts'
export { intentTypedData, permitTypedData, recoverPermitSigner } from './typed-data.ts'
