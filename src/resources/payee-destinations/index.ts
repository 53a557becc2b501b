// The public module of the payee-destinations resource: what other resources may use of it.
export {
  destinationForClientId,
  type ResolvedDestination,
  registerDestination,
  resolveDestination,
} from './model.ts'
export { payeeDestinationState } from './tables.ts'
