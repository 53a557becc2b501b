// A server-sent-events reader over fetch (the key travels in x-api-key, never in the URL), reconnecting after a
// dropped connection until it is stopped.
import { CliError } from './client.ts'

/** One server-sent event. */
export interface SseMessage {
  event: string
  data: string
  id?: string
}

/** Reads `url` as an event stream and calls `onMessage` per event; resolves when `signal` aborts. */
export async function readEventStream(
  url: string,
  headers: Record<string, string>,
  onMessage: (message: SseMessage) => void | Promise<void>,
  options: { signal: AbortSignal; onDrop?: (reason: string) => void; retryMs?: number },
): Promise<void> {
  let first = true
  while (!options.signal.aborted) {
    try {
      const response = await fetch(url, {
        headers: { accept: 'text/event-stream', ...headers },
        signal: options.signal,
      })
      if (!response.ok || !response.body) {
        const text = await response.text().catch(() => '')
        const message = /"message":"([^"]*)"/.exec(text)?.[1] ?? text.slice(0, 200)
        // a refusal (bad key, unknown flag) will not change by retrying
        if (response.status < 500)
          throw new CliError(`GET ${new URL(url).pathname} answered ${response.status}: ${message}`)
        throw new Error(`answered ${response.status}`)
      }
      first = false
      const decoder = new TextDecoder()
      let buffer = ''
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true })
        let end = buffer.indexOf('\n\n')
        while (end >= 0) {
          const block = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          const message: SseMessage = { event: 'message', data: '' }
          const data: string[] = []
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) continue
            const colon = line.indexOf(':')
            const field = colon < 0 ? line : line.slice(0, colon)
            const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '')
            if (field === 'event') message.event = value
            else if (field === 'data') data.push(value)
            else if (field === 'id') message.id = value
          }
          if (data.length) {
            message.data = data.join('\n')
            await onMessage(message)
          }
          end = buffer.indexOf('\n\n')
        }
      }
      options.onDrop?.('the sandbox closed the stream')
    } catch (error) {
      if (options.signal.aborted) return
      if (error instanceof CliError) throw error
      if (first) {
        const cause = (error as { cause?: { code?: string } }).cause?.code
        throw new CliError(
          `cannot reach the sandbox at ${new URL(url).origin}${cause ? ` (${cause})` : ''}: is it running?`,
        )
      }
      options.onDrop?.((error as Error).message)
    }
    await new Promise((resolve) => setTimeout(resolve, options.retryMs ?? 1000))
  }
}

/** An AbortSignal that aborts on SIGINT or SIGTERM (the tool then ends with 0). */
export function untilInterrupted(): AbortSignal {
  const controller = new AbortController()
  const stop = () => controller.abort()
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  return controller.signal
}
