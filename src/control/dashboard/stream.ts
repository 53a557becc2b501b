// GET /__sandbox/stream: a key's journal as server-sent events, pushed as entries are recorded (API calls,
// events, webhook delivery attempts). The dashboard reads it with fetch (so the key travels in x-api-key, never
// in a URL) and refreshes what it shows without a reload.
import type { ResponseStream } from '../../contract/neutral.ts'
import { sseEvent } from '../../contract/sse.ts'
import type { EventBus } from '../../events/event-bus.ts'
import { readable } from '../journal.ts'
import type { SandboxTopics } from '../services.ts'

/** Comment lines every 15 s keep proxies and browsers from closing an idle stream. */
const HEARTBEAT_MS = 15_000

/** The stream of a key's new journal entries (`event: journal`, heard on the bus), opened with a `ready` event. */
export function journalStream(events: EventBus<SandboxTopics>, tenant: string): ResponseStream {
  return {
    open(write) {
      write(`retry: 2000\n${sseEvent('ready', { tenant })}`)
      const stop = events.on(
        'journal',
        (_tenant, entry) => write(sseEvent('journal', readable(entry), entry.id)),
        tenant,
      )
      const heartbeat = setInterval(() => write(': ping\n\n'), HEARTBEAT_MS)
      heartbeat.unref()
      return () => {
        stop()
        clearInterval(heartbeat)
      }
    },
  }
}
