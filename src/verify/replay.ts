// `verify --replay <har-or-dir>`: the real side of a comparison answered from a recording (no network), with the
// credentials mode, inputs and flows the recording was made with.
import type { Flow } from './catalogue.ts'
import { loadRecording, replayTarget } from './recording.ts'
import type { Credentials, Inputs, Side } from './run.ts'

/** The payee verify uses when a recording does not say. */
const DEFAULT_PAYEE = '0x000000000000000000000000000000000000dEaD'

export interface ReplaySource {
  real: Side
  inputs: Inputs
  /** the flows the recording holds calls of, in catalogue order */
  flows: Flow[]
}

/** The real side of a replay, read from `path` (a .har file or a directory with real.har). */
export function replaySource(path: string, catalogue: Flow[]): ReplaySource {
  const recording = loadRecording(path)
  const { meta, exchanges } = recording
  const sent = exchanges.find((e) => e.request.headers['x-api-key'] || e.request.headers['x-client-id'])
  const mode = meta?.credentials ?? (sent?.request.headers['x-api-key'] ? 'api-key' : 'client-id')
  // the recorded values are masked: a replay matches calls by method, path and query, not by credentials
  const credentials: Credentials =
    mode === 'api-key'
      ? { apiKey: 'recorded' }
      : {
          clientId: 'recorded',
          origin: meta?.origin ?? sent?.request.headers.origin ?? 'https://verify.invalid',
        }
  const recorded = meta?.inputs ?? {}
  const inputs: Inputs = {
    payee: recorded.payee ?? DEFAULT_PAYEE,
    run: recorded.run ?? 'replay',
    ...(recorded.webhookUrl ? { webhookUrl: recorded.webhookUrl } : {}),
  }
  const inRecording = new Set(exchanges.map((e) => e.flow).filter(Boolean))
  return {
    real: { label: `recording ${recording.file}`, target: replayTarget(exchanges), credentials },
    inputs,
    flows: catalogue.filter((f) => inRecording.has(f.id)),
  }
}
