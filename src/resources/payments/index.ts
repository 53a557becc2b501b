// The door of the payments resource: the only file of it that other rooms (other resources, the route table, the
// control plane, the sandbox, tests) import.
export { paymentRoutes } from './routes.ts'
