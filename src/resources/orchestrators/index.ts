// The door of the orchestrators resource: the only file of it that other rooms (other resources, the route table, the
// control plane, the sandbox, tests) import.
export { brandingForClientId } from './branding.ts'
export { type ResolvedOrchestratorFee, resolveOrchestratorFees } from './fees.ts'
export { activeLinkOf, indexOnboardingTokens, orchestratorIdOf } from './links.ts'
export {
  DEFAULT_MAX_LINK_INTENTS,
  DEFAULT_MAX_ONBOARDED_PLATFORMS,
  isPlatformTenant,
  OnboardingLedger,
} from './onboarding-limits.ts'
export { orchestratorPageRoutes } from './page-routes.ts'
export { orchestratorRoutes } from './routes.ts'
export { type BrandingRecord, ORCHESTRATOR_KEY } from './schema.ts'
export { hasOrchestratorPlan, reportScreening } from './screening.ts'
export { orchestratorState } from './tables.ts'
