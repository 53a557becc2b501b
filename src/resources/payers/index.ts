// The door of the payers resource: the only file of it that other rooms (other resources, the route table, the
// control plane, the sandbox, tests) import.
export { isCompliant } from './compliance.ts'
export { PayerNotFoundError } from './errors.ts'
export {
  applyKycAction,
  complianceView,
  createPayer,
  forceCompliance,
  getPayer,
  indexPayerPages,
  markAgreementCompleted,
} from './model.ts'
export { payerPageRoutes } from './page-routes.ts'
export { payerControlRoutes, payerRoutes } from './routes.ts'
export { CreatePayerBody, type PayerRecord } from './schema.ts'
export { payerState } from './tables.ts'
