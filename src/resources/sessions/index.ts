// The door of the sessions resource: the only file of it that other rooms (other resources, the route table, the
// control plane, the sandbox, tests) import.
export { MAX_SESSIONS_PER_KEY } from './model.ts'
export { sessionRoutes } from './routes.ts'
