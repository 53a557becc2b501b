// Runs the catalogue's flows on two targets (the real service and a sandbox), step by step, each side building its
// later steps from its own earlier answers, and compares each pair of answers.
import type { Flow, Need, Step } from './catalogue.ts'
import { compareResponses, type Difference } from './compare.ts'
import { type Mask, masks } from './masks.ts'
import { MissingValue, resolveBody, resolvePath, type Scope } from './templates.ts'
import type { Exchange, Target } from './types.ts'

/** How a side authenticates: an API key, or a client ID with the Origin it allows. */
export type Credentials = { apiKey: string } | { clientId: string; origin: string }

/** One side of a comparison. `label` names it in the report (a base URL, "in-process sandbox", a recording). */
export interface Side {
  label: string
  target: Target
  credentials: Credentials
}

/** The values flows read as `{input.*}`. */
export interface Inputs {
  /** the payee of every request and link the flows create */
  payee: string
  /** where the webhooks flow registers its webhook (the flow is skipped without it) */
  webhookUrl?: string
  /** a word unique to the run, in labels and references */
  run: string
}

export interface RunOptions {
  flows: Flow[]
  real: Side
  sandbox: Side
  inputs: Inputs
  masks?: Mask[]
  /** told of every call and answer (for recordings); credentials are in the headers it is given */
  onExchange?: (side: 'real' | 'sandbox', flow: string, step: string, exchange: Exchange) => void
}

/** A difference with where it was seen: the operation, and the first flow step (the others in `alsoIn`). */
export interface ReportedDifference extends Difference {
  operation: string
  flow: string
  step: string
  alsoIn: string[]
}

export interface StepResult {
  step: string
  operation: string
  /** the call as the sandbox side made it (path and query) */
  call: string
  real?: number
  sandbox?: number
  /** why the step did not run on both sides */
  notRun?: string
}

export interface FlowResult {
  id: string
  summary: string
  creates: string
  /** why the flow did not run */
  skipped?: string
  steps: StepResult[]
}

export interface VerifyReport {
  real: string
  sandbox: string
  flows: FlowResult[]
  differences: ReportedDifference[]
  /** differences hidden by --ignore */
  masked: number
  /** calls that got no answer (a side could not be reached): the run is incomplete */
  failures: string[]
}

/** A client ID no service issued, sent with an Origin: the invalid credential of `auth: 'invalid'` steps. */
const INVALID_CLIENT_ID = 'cli_requestsandboxverify'
const INVALID_ORIGIN = 'https://verify.invalid'

function missingNeed(
  needs: Need[] | undefined,
  credentials: Credentials,
  inputs: Inputs,
): string | undefined {
  for (const need of needs ?? []) {
    if (need === 'api-key' && !('apiKey' in credentials))
      return 'needs an API key (runs with --key, not --client-id)'
    if (need === 'webhook-url' && !inputs.webhookUrl) return 'needs --webhook-url'
  }
  return undefined
}

function headersFor(step: Step, credentials: Credentials, body: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json' }
  if (body !== undefined) headers['content-type'] = 'application/json'
  const auth = step.auth ?? 'default'
  if (auth === 'invalid') {
    headers['x-client-id'] = INVALID_CLIENT_ID
    headers.origin = INVALID_ORIGIN
  } else if (auth === 'default') {
    if ('apiKey' in credentials) headers['x-api-key'] = credentials.apiKey
    else {
      headers['x-client-id'] = credentials.clientId
      headers.origin = credentials.origin
    }
  }
  return headers
}

/** The request a step makes on a side, or the placeholder it lacks. */
export function buildRequest(step: Step, scope: Scope, credentials: Credentials): Exchange['request'] {
  const url = resolvePath(step.path, scope)
  const body = step.body === undefined ? undefined : JSON.stringify(resolveBody(step.body, scope))
  return {
    method: step.method,
    url,
    headers: headersFor(step, credentials, body),
    ...(body !== undefined ? { body } : {}),
  }
}

function parsed(body: string): unknown {
  try {
    return JSON.parse(body)
  } catch {
    return undefined
  }
}

/** A list answer cut to the items a step picks (the objects the flow made); any other answer as it is. */
function picked(
  response: Exchange['response'],
  pick: NonNullable<Step['pick']>,
  scope: Scope,
): Exchange['response'] {
  const list = parsed(response.body)
  if (!Array.isArray(list)) return response
  let equals: unknown
  try {
    equals = resolveBody(pick.equals, scope)
  } catch (error) {
    if (error instanceof MissingValue) return response
    throw error
  }
  const items = list.filter(
    (item) => item !== null && typeof item === 'object' && item[pick.field] === equals,
  )
  return { ...response, body: JSON.stringify(items) }
}

async function call(target: Target, request: Exchange['request']): Promise<Exchange['response']> {
  const response = await target(request)
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(response.headers)) headers[name.toLowerCase()] = value
  return { ...response, headers }
}

/** Runs the flows and compares every pair of answers. Flows run one after the other, a side's steps in order. */
export async function runVerify(options: RunOptions): Promise<VerifyReport> {
  const { real, sandbox, inputs } = options
  const flows: FlowResult[] = []
  const byKey = new Map<string, ReportedDifference>()
  const masked = new Set<string>()
  const failures: string[] = []
  for (const flow of options.flows) {
    const result: FlowResult = { id: flow.id, summary: flow.summary, creates: flow.creates, steps: [] }
    flows.push(result)
    const skipped =
      missingNeed(flow.needs, real.credentials, inputs) ??
      missingNeed(flow.needs, sandbox.credentials, inputs)
    if (skipped) {
      result.skipped = skipped
      continue
    }
    const scopes = { real: { input: { ...inputs } } as Scope, sandbox: { input: { ...inputs } } as Scope }
    let stopped: string | undefined
    for (const step of flow.steps) {
      const stepResult: StepResult = {
        step: step.name,
        operation: step.operation,
        call: `${step.method} ${step.path}`,
      }
      result.steps.push(stepResult)
      const lacking =
        missingNeed(step.needs, real.credentials, inputs) ??
        missingNeed(step.needs, sandbox.credentials, inputs)
      if (lacking) {
        stepResult.notRun = lacking
        continue
      }
      if (stopped && !step.cleanup) {
        stepResult.notRun = stopped
        continue
      }
      // both requests are built before either is sent: a step one side cannot make is made on neither (but cleanup,
      // which deletes what each side made)
      const requests: Partial<Record<'real' | 'sandbox', Exchange['request']>> = {}
      for (const side of ['real', 'sandbox'] as const) {
        try {
          requests[side] = buildRequest(step, scopes[side], (side === 'real' ? real : sandbox).credentials)
        } catch (error) {
          if (!(error instanceof MissingValue)) throw error
          stepResult.notRun = `${side}: ${error.message}`
        }
      }
      if (stepResult.notRun && !step.cleanup) {
        stopped = `not run: ${stepResult.notRun}`
        continue
      }
      const answers: Partial<Record<'real' | 'sandbox', Exchange['response']>> = {}
      for (const side of ['real', 'sandbox'] as const) {
        const request = requests[side]
        if (!request) continue
        if (side === 'sandbox') stepResult.call = `${request.method} ${request.url}`
        let response: Exchange['response']
        try {
          response = await call((side === 'real' ? real : sandbox).target, request)
        } catch (error) {
          // a side that cannot be reached ends the flow, but its cleanup still runs
          const failure = `${flow.id}/${step.name} on the ${side === 'real' ? 'real service' : 'sandbox'}: ${(error as Error).message}`
          failures.push(failure)
          stepResult.notRun = failure
          stopped = `not run: ${failure}`
          continue
        }
        options.onExchange?.(side, flow.id, step.name, { request, response })
        answers[side] = response
        stepResult[side] = response.status
        scopes[side][step.name] = parsed(response.body)
      }
      if (!answers.real || !answers.sandbox) continue
      const compared = step.pick
        ? {
            real: picked(answers.real, step.pick, scopes.real),
            sandbox: picked(answers.sandbox, step.pick, scopes.sandbox),
          }
        : { real: answers.real, sandbox: answers.sandbox }
      for (const difference of compareResponses(compared.real, compared.sandbox)) {
        const key = JSON.stringify([
          step.operation,
          difference.kind,
          difference.path,
          difference.real,
          difference.sandbox,
        ])
        if ((options.masks ?? []).some((m) => masks(m, step.operation, difference.path))) {
          masked.add(key)
          continue
        }
        const seen = byKey.get(key)
        if (seen) seen.alsoIn.push(`${flow.id}/${step.name}`)
        else
          byKey.set(key, {
            ...difference,
            operation: step.operation,
            flow: flow.id,
            step: step.name,
            alsoIn: [],
          })
      }
    }
  }
  return {
    real: real.label,
    sandbox: sandbox.label,
    flows,
    differences: [...byKey.values()],
    masked: masked.size,
    failures,
  }
}

/** The calls the flows would make, placeholders unresolved (`--dry-run`). */
export function plannedCalls(flows: Flow[], credentials: Credentials, inputs: Inputs): string[] {
  const lines: string[] = []
  for (const flow of flows) {
    const skipped = missingNeed(flow.needs, credentials, inputs)
    lines.push(`${flow.id}: ${flow.summary}${skipped ? ` (skipped: ${skipped})` : ''}`)
    lines.push(`  leaves on the service: ${flow.creates}`)
    if (skipped) continue
    for (const step of flow.steps) {
      const lacking = missingNeed(step.needs, credentials, inputs)
      const auth =
        step.auth === 'none' ? ' [no credentials]' : step.auth === 'invalid' ? ' [an unknown client ID]' : ''
      const body = step.body === undefined ? '' : ` ${JSON.stringify(step.body)}`
      const path = step.path.replace(/\{input\.(\w+)\}/g, (whole, name: string) => {
        const value = inputs[name as keyof Inputs]
        return value === undefined ? whole : encodeURIComponent(value)
      })
      lines.push(
        `  ${step.method} ${path}${body}${auth}${lacking ? ` (skipped: ${lacking})` : ''}${step.cleanup ? ' (cleanup)' : ''}`,
      )
    }
  }
  return lines
}
