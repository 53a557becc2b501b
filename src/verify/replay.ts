// `verify --replay <har-or-dir>`: the real side of a comparison answered from a recording (no network), with the
// credentials mode, inputs and flows the recording was made with.
import type { Flow } from './catalogue.ts'
import { loadRecording, replayTarget } from './recording.ts'
import type { Credentials, Inputs, ReportedDifference, Side } from './run.ts'

/** The payee verify uses when a recording does not say. */
const DEFAULT_PAYEE = '0x000000000000000000000000000000000000dEaD'

export interface ReplaySource {
  real: Side
  inputs: Inputs
  /** the flows the recording holds calls of, in catalogue order, each with the steps it holds */
  flows: Flow[]
  /**
   * Whether a difference counts: not a value (format, enum value, type, message) at a path whose recorded value is a
   * placeholder, nor the body or content type of an answer whose body is not recorded (a corpus answer built from a
   * schema that gives no value there, or a status the documents give without a body), in every step it was seen.
   */
  counts(difference: ReportedDifference): boolean
}

const VALUE_KINDS = new Set(['format', 'enum', 'type', 'body', 'header', 'message'])

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
  const given = meta?.inputs ?? {}
  const inputs: Inputs = {
    payee: given.payee ?? DEFAULT_PAYEE,
    run: given.run ?? 'replay',
    ...(given.webhookUrl ? { webhookUrl: given.webhookUrl } : {}),
  }
  // the steps the recording has answers to: a step the real side never sent (or a corpus left out) is not replayed
  const recorded = new Set(exchanges.map((e) => `${e.flow}/${e.step}`))
  const flows = catalogue
    .map((flow) => ({ ...flow, steps: flow.steps.filter((step) => recorded.has(`${flow.id}/${step.name}`)) }))
    .filter((flow) => flow.steps.length > 0)
  if (flows.length === 0)
    throw new Error(`${recording.file} holds no call of a verify flow (a recording made by verify --record)`)
  const placeholders = new Set<string>()
  for (const e of exchanges)
    for (const path of e.unspecified ?? []) placeholders.add(`${e.flow}/${e.step} ${path}`)
  const unspecified = (d: ReportedDifference) =>
    VALUE_KINDS.has(d.kind) &&
    [`${d.flow}/${d.step}`, ...d.alsoIn].every((where) => placeholders.has(`${where} ${d.path}`))
  return {
    real: { label: `recording ${recording.file}`, target: replayTarget(exchanges), credentials },
    inputs,
    flows,
    counts: (d) => !unspecified(d),
  }
}
