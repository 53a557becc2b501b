// The door of the journeys resource: the only file of it that other rooms (other resources, the route table, the
// control plane, the sandbox, tests) import.
export { journeyRoutes } from './routes.ts'
