// The public module of the orchestrators resource: what authentication, secure payments and the dashboard use.
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
export { orchestratorState } from './state.ts'
