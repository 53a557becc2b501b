// The tools of the command line (request-sandbox <tool> …): clients of a running sandbox's control API, and verify.
// src/cli.ts hands them their arguments; each answers its exit code.
import { CliError, EXIT } from './client.ts'

/** Tool name → its module (loaded on use). */
const TOOLS: Record<string, () => Promise<(args: string[]) => Promise<number>>> = {
  trigger: async () => (await import('./trigger.ts')).trigger,
  logs: async () => (await import('./logs.ts')).logs,
  listen: async () => (await import('./listen.ts')).listen,
  webhooks: async () => (await import('./webhooks.ts')).webhooks,
  fixtures: async () => (await import('./fixtures.ts')).fixtures,
  snapshot: async () => (await import('./snapshot.ts')).snapshot,
  sandbox: async () => (await import('./sandbox.ts')).sandbox,
  verify: async () => (await import('../verify/index.ts')).verify,
  proxy: async () => (await import('../verify/index.ts')).proxy,
}

/** Whether `request-sandbox <word>` is a tool rather than the server. */
export function isTool(word: string | undefined): boolean {
  return word !== undefined && Object.hasOwn(TOOLS, word)
}

/** Runs a tool; its errors become one line of stderr and the exit code. */
export async function runTool(argv: string[]): Promise<number> {
  const [name, ...args] = argv
  try {
    return await (await TOOLS[name!]!())(args)
  } catch (error) {
    const code = error instanceof CliError ? error.code : EXIT.failed
    process.stderr.write(`request-sandbox ${name}: ${(error as Error).message}\n`)
    return code
  }
}
