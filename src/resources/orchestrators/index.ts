// The door of the orchestrators resource: the only file of it that other rooms (other resources, the route table, the
// control plane, the sandbox, tests) import.
export { brandingForClientId } from './branding.ts'
export { resolveOrchestratorFees } from './fees.ts'
export { activeLinkOf, indexOnboardingTokens, orchestratorIdOf } from './links.ts'
export { isPlatformTenant, OnboardingLedger } from './onboarding-limits.ts'
export { orchestratorPageRoutes } from './page-routes.ts'
export { orchestratorRoutes } from './routes.ts'
export { ORCHESTRATOR_KEY } from './schema.ts'
export { hasOrchestratorPlan, reportScreening } from './screening.ts'
