// The public module of the rates resource: what other resources and the control plane may use of it.
export { restoreWorldRates } from './model.ts'
export { rateState } from './tables.ts'
