// The tests wait with the sandbox's own poll-until helpers (src/contract/wait.ts, which the harness and the
// scenario seeds use too): no copy of them lives in test/support.
export { until, type WaitOptions, waitFor } from '../../src/contract/wait.ts'
