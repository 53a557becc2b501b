// What every tool of the command line shares: the sandbox it talks to (--base, --key, their environment
// variables), calls of its control API, and the exit codes (0 done, 1 the sandbox refused or could not be
// reached, 2 a usage error).
import { type ParseArgsConfig, parseArgs } from 'node:util'

/** Exit codes every tool documents in its --help. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const

/** An error a tool reports on one line of stderr before exiting with `code`. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly code: number = EXIT.failed,
  ) {
    super(message)
  }
}

/** The flags every tool takes, as its --help shows them. */
export const COMMON_HELP = `  --base <url>        the sandbox (env SANDBOX_URL; default http://127.0.0.1:8080)
  --key <key>         the API key whose world the tool works in (env SANDBOX_API_KEY)
  -h, --help          this text`

export const COMMON_EXIT_HELP = `Exit codes: 0 done; 1 the sandbox answered an error or could not be reached; 2 a usage error.`

export const commonOptions = {
  base: { type: 'string' },
  key: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

/** Parses a tool's arguments; an unknown flag or a missing value is a usage error. */
export function parseTool<O extends NonNullable<ParseArgsConfig['options']>>(
  args: string[],
  options: O,
  tool: string,
): ReturnType<
  typeof parseArgs<{
    args: string[]
    options: typeof commonOptions & O
    allowPositionals: true
    strict: true
  }>
> {
  try {
    return parseArgs({
      args,
      options: { ...commonOptions, ...options },
      allowPositionals: true,
      strict: true,
    })
  } catch (error) {
    throw new CliError(
      `${(error as Error).message.split('\n')[0]} (see request-sandbox ${tool} --help)`,
      EXIT.usage,
    )
  }
}

/** A sandbox reached over HTTP with one key. */
export class SandboxClient {
  readonly base: string
  readonly key: string
  /** `keyless`: the call needs no API key (a public route); one given is still sent */
  constructor(
    base: string | undefined,
    key: string | undefined,
    tool: string,
    options: { keyless?: boolean } = {},
  ) {
    const url = base ?? process.env.SANDBOX_URL ?? 'http://127.0.0.1:8080'
    if (!/^https?:\/\/[^\s]+$/.test(url))
      throw new CliError(`invalid --base ${JSON.stringify(url)}: an http:// or https:// URL`, EXIT.usage)
    const apiKey = key ?? process.env.SANDBOX_API_KEY ?? ''
    if (!apiKey && !options.keyless)
      throw new CliError(
        `${tool} needs an API key: --key <key> or SANDBOX_API_KEY (see request-sandbox ${tool} --help)`,
        EXIT.usage,
      )
    this.base = url.replace(/\/+$/, '')
    this.key = apiKey
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return this.key ? { 'x-api-key': this.key, ...extra } : { ...extra }
  }

  /** Calls the sandbox; answers the parsed body of a 2xx, throws a CliError naming the sandbox's message otherwise. */
  async call<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    contentType = 'application/json',
  ): Promise<T> {
    let response: Response
    try {
      response = await fetch(`${this.base}${path}`, {
        method,
        headers: this.headers(body === undefined ? {} : { 'content-type': contentType }),
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      })
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code
      throw new CliError(
        `cannot reach the sandbox at ${this.base}${cause ? ` (${cause})` : ''}: is it running?`,
      )
    }
    const text = await response.text()
    let parsed: unknown = text
    try {
      parsed = JSON.parse(text)
    } catch {}
    if (!response.ok) {
      const message =
        typeof parsed === 'object' && parsed !== null && 'message' in parsed
          ? (parsed as { message: unknown }).message
          : text
      const errors = (parsed as { errors?: unknown } | null)?.errors
      throw new CliError(
        `${method} ${path} answered ${response.status}: ${typeof message === 'string' ? message : JSON.stringify(message)}${errors ? ` ${JSON.stringify(errors)}` : ''}`,
      )
    }
    return parsed as T
  }
}

/** Parses `--override path=value` pairs: the value as JSON when it parses (numbers, booleans, objects), else text. */
export function parseOverrides(pairs: string[] | undefined, tool: string): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const pair of pairs ?? []) {
    const at = pair.indexOf('=')
    if (at <= 0)
      throw new CliError(
        `invalid --override ${JSON.stringify(pair)}: path=value (see request-sandbox ${tool} --help)`,
        EXIT.usage,
      )
    const raw = pair.slice(at + 1)
    let value: unknown = raw
    // amounts stay strings: the API takes "10", not 10
    if (/^(true|false|null|\{.*\}|\[.*\])$/s.test(raw)) {
      try {
        value = JSON.parse(raw)
      } catch {}
    }
    out[pair.slice(0, at)] = value
  }
  return out
}
