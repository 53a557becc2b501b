// request-sandbox verify: where a sandbox and the real service differ. Other rooms use this door only.
export { FLOWS, type Flow, type Step } from './catalogue.ts'
export { verify } from './command.ts'
export { compareResponses, type Difference, type DifferenceKind } from './compare.ts'
// recordings: HAR files, replay, the recording proxy, recorded objects as fixtures
export { maskExchange } from './har.ts'
export { startProxy } from './proxy.ts'
export { fixturesImport, proxy } from './record-commands.ts'
export { type Credentials, type ReportedDifference, runVerify, type Side, type VerifyReport } from './run.ts'
export { httpTarget } from './targets.ts'
export type { Target } from './types.ts'
