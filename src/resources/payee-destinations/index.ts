// The public module of the payee-destinations resource: what other resources may use of it.
export { destinationForClientId } from './model.ts'
