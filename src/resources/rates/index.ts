// The door of the rates resource: the only file of it that other rooms (other resources, the route table, the
// control plane, the sandbox, tests) import.
export { ConversionRegistry } from './registry.ts'
export { rateRoutes } from './routes.ts'
