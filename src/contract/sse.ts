/** One server-sent event: its name, an optional id, and `data` as JSON. */
export function sseEvent(event: string, data: unknown, id?: string): string {
  return `event: ${event}\n${id ? `id: ${id}\n` : ''}data: ${JSON.stringify(data)}\n\n`
}
