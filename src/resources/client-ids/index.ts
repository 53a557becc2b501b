// The public module of the client-ids resource: what other resources may use of it.
export { effectiveFee } from './fees.ts'
export { createClientId, indexClientIds } from './model.ts'
export { clientIdState } from './tables.ts'
