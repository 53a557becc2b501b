// `request-sandbox/msw`: what an app's test suite imports to answer its Request Network API calls in-process.
export { createSandbox, type Sandbox, type SandboxOptions } from './sandbox.ts'
export { type CreateHandlersOptions, createHandlers } from './transports/msw.ts'
