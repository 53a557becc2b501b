// The door of the client-ids resource: the only file of it that other rooms (other resources, the route table, the
// control plane, the sandbox, tests) import.
export { effectiveFee } from './fees.ts'
export { createClientId, indexClientIds } from './model.ts'
export { clientIdRoutes } from './routes.ts'
export { CreateClientIdBody } from './schema.ts'
export { clientIdState } from './tables.ts'
