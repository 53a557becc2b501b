// The dashboard's client of the sandbox: the control API (and nothing else) with the chosen key, and the
// live stream read with fetch so the key travels in a header. URLs are relative: they follow the host the
// browser used.

/** An answer that was not 2xx, with the service's message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

let apiKey = ''

/** Sets the key every call sends. */
export function useKey(key: string): void {
  apiKey = key
}

let adminKey = ''

/** Sets the admin key (--admin-key) the key list is asked with. */
export function useAdminKey(key: string): void {
  adminKey = key
}

/** The current key. */
export function currentKey(): string {
  return apiKey
}

/** Calls a control endpoint with the key; resolves with its JSON body, rejects with ApiError. */
export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(path.replace(/^\//, ''), {
    method,
    headers: {
      ...(apiKey ? { 'x-api-key': apiKey } : {}),
      // only the key list reads it
      ...(adminKey && path === '/__sandbox/keys' ? { 'x-sandbox-admin-key': adminKey } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  const parsed = text ? (JSON.parse(text) as unknown) : null
  if (!response.ok) {
    const message = (parsed as { message?: unknown } | null)?.message
    throw new ApiError(
      response.status,
      Array.isArray(message) ? message.join('; ') : String(message ?? response.statusText),
    )
  }
  return parsed as T
}

/** Reads GET /__sandbox/stream for the key; `onEvent` gets each event, `onState` the connection's state. */
export function openStream(
  key: string,
  onEvent: (event: string, data: unknown) => void,
  onState: (live: boolean) => void,
): () => void {
  const controller = new AbortController()
  let stopped = false
  const run = async (): Promise<void> => {
    while (!stopped) {
      try {
        const response = await fetch('__sandbox/stream', {
          headers: { 'x-api-key': key, accept: 'text/event-stream' },
          signal: controller.signal,
        })
        if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}`)
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
        let buffer = ''
        for (;;) {
          const { value, done } = await reader.read()
          if (done) break
          buffer += value
          let end = buffer.indexOf('\n\n')
          while (end >= 0) {
            const block = buffer.slice(0, end)
            buffer = buffer.slice(end + 2)
            end = buffer.indexOf('\n\n')
            let event = 'message'
            let data = ''
            for (const line of block.split('\n')) {
              if (line.startsWith('event: ')) event = line.slice(7)
              else if (line.startsWith('data: ')) data += line.slice(6)
            }
            if (!data) continue
            if (event === 'ready') onState(true)
            onEvent(event, JSON.parse(data))
          }
        }
      } catch {
        // dropped or refused: shown as offline, tried again below
      }
      onState(false)
      if (!stopped) await new Promise((resolve) => setTimeout(resolve, 2000))
    }
  }
  void run()
  return () => {
    stopped = true
    controller.abort()
  }
}
