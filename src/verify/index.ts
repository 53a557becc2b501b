// request-sandbox verify: where a sandbox and the real service differ. Other rooms use this door only.
export { FLOWS, type Flow, type Step, selectFlows } from './catalogue.ts'
export { VERIFY_HELP, verify } from './command.ts'
export { compareResponses, type Difference, type DifferenceKind } from './compare.ts'
// recordings: HAR files, replay, the recording proxy, recorded objects as fixtures
export { CREDENTIAL_HEADERS, MASKED, maskExchange, readHar } from './har.ts'
export { importFixtures } from './import-fixtures.ts'
export { type Mask, parseMask } from './masks.ts'
export { startProxy } from './proxy.ts'
export { fixturesImport, IMPORT_HELP, PROXY_HELP, proxy } from './record-commands.ts'
export { Recorder, replayTarget } from './recording.ts'
export { jsonReport, markdownReport, textReport } from './report.ts'
export {
  type Credentials,
  type Inputs,
  plannedCalls,
  type ReportedDifference,
  type RunOptions,
  runVerify,
  type Side,
  type VerifyReport,
} from './run.ts'
export { httpTarget } from './targets.ts'
export type { Exchange, Target } from './types.ts'
