// The door of the payee-destinations resource: the only file of it that other rooms (other resources, the route table, the
// control plane, the sandbox, tests) import.
export { destinationForClientId, registerDestination, resolveDestination } from './model.ts'
export { payeeDestinationRoutes, sessionDestinationRoutes } from './routes.ts'
export { payeeDestinationState } from './tables.ts'
