// How long the chain is away when its anvil dies: SIGKILL the embedded anvil of a running server, then poll
// GET /__sandbox/health over HTTP (a call every 10 ms, each on its own) and time kill -> the first answer 200,
// counting the 503 `degraded` answers seen meanwhile; the supervisor's own "restarted in N ms" is printed beside it.
// Run alone: `npx tsx bench/chain-restart.ts [kills]`; `npm run bench` runs it with 5 kills.
import { pathToFileURL } from 'node:url'
import type { StartedChain } from '../src/chain/index.ts'
import { startServer } from '../src/server.ts'

/** One kill: when health answered 200 again, how many 503s were seen, and what the supervisor logged. */
export interface ChainRestartRun {
  killTo200Ms: number
  degradedAnswers: number
  supervisorRestartMs: number | null
}

const round = (ms: number) => Math.round(ms)

/** Kills the embedded anvil `kills` times (each after the previous restart) and times each outage. */
export async function measureChainRestart(kills = 5): Promise<ChainRestartRun[]> {
  const logged: string[] = []
  const server = await startServer({ log: (m) => logged.push(m) })
  const { sandbox } = server
  const supervisor = sandbox.shared.supervisors.get('sepolia')!
  const runs: ChainRestartRun[] = []
  try {
    for (let i = 0; i < kills; i++) {
      await supervisor.save()
      const before = logged.length
      const killedAt = performance.now()
      process.kill((sandbox.chain as StartedChain).pid!, 'SIGKILL')
      let degradedAnswers = 0
      let upAt: number | null = null
      const inFlight: Promise<void>[] = []
      while (upAt === null && performance.now() - killedAt < 10_000) {
        inFlight.push(
          fetch(`${server.url}/__sandbox/health`, { signal: AbortSignal.timeout(5000) })
            .then(async (res) => {
              await res.arrayBuffer()
              if (res.status === 503) degradedAnswers++
              else if (res.status === 200 && upAt === null) upAt = performance.now()
            })
            .catch(() => {}),
        )
        await new Promise((r) => setTimeout(r, 10))
      }
      await Promise.all(inFlight)
      // no figure rather than a NaN one: the chain did not come back within the poll's 10 s
      if (upAt === null) throw new Error(`kill ${i + 1}: health never answered 200 within 10 s`)
      const line = logged.slice(before).find((m) => /restarted in \d+ ms/.test(m))
      runs.push({
        killTo200Ms: round(upAt - killedAt),
        degradedAnswers,
        supervisorRestartMs: line ? Number(/restarted in (\d+) ms/.exec(line)![1]) : null,
      })
      await supervisor.ready()
    }
  } finally {
    await server.close()
  }
  return runs
}

/** The figures as printed lines. */
export function formatChainRestart(runs: ChainRestartRun[]): string[] {
  const sorted = runs.map((r) => r.killTo200Ms).sort((a, b) => a - b)
  return [
    `anvil SIGKILL -> health 200 over ${runs.length} kills: median ${sorted[Math.floor(sorted.length / 2)]} ms, max ${sorted.at(-1)} ms (target < 2000 ms)`,
    ...runs.map(
      (r, i) =>
        `  kill ${i + 1}: ${r.killTo200Ms} ms to 200, ${r.degradedAnswers} answers 503 degraded meanwhile, supervisor restart ${r.supervisorRestartMs ?? '?'} ms`,
    ),
  ]
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const runs = await measureChainRestart(Number(process.argv[2] ?? 5))
  for (const line of formatChainRestart(runs)) console.log(line)
}
