// The raw POST of a webhook attempt: to the address the destination policy checked, reading the receiver's answer
// (status, headers, the start of its body) within the attempt's time.

import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { LookupFunction } from 'node:net'
import { Readable } from 'node:stream'
import { ANSWER_BODY_BYTES, type ReceiverAnswer } from './format.ts'
import type { CheckedAddress } from './hosts.ts'

/** What one attempt got: the receiver's status and answer, or why there was none. */
export interface PostResult {
  status: number | null
  response?: ReceiverAnswer
  error?: string
}

/** How long the start of a receiver's body is waited for once its headers came (an intercepted fetch may never end it). */
const ANSWER_BODY_WAIT_MS = 250

/** A receiver's headers and the start of its body, read within the attempt's time (an answer that never ends is cut). */
export async function answerOf(response: Response, attemptSignal: AbortSignal): Promise<ReceiverAnswer> {
  const headers: Record<string, string> = {}
  response.headers.forEach((value, name) => {
    headers[name] = value
  })
  return { headers, body: await bodyStart(response.body, attemptSignal) }
}

/**
 * The first ANSWER_BODY_BYTES of a receiver's body, waited for at most ANSWER_BODY_WAIT_MS (and the attempt's time);
 * the rest is dropped (the stream is cancelled).
 */
async function bodyStart(
  stream: ReadableStream<Uint8Array> | null,
  attemptSignal: AbortSignal,
): Promise<string> {
  if (!stream) return ''
  const signal = AbortSignal.any([attemptSignal, AbortSignal.timeout(ANSWER_BODY_WAIT_MS)])
  const reader = stream.getReader()
  const decoder = new TextDecoder()
  const aborted = new Promise<null>((resolve) => {
    if (signal.aborted) resolve(null)
    signal.addEventListener('abort', () => resolve(null), { once: true })
  })
  let body = ''
  try {
    while (body.length < ANSWER_BODY_BYTES) {
      const chunk = await Promise.race([reader.read(), aborted])
      if (!chunk || chunk.done) break
      body += decoder.decode(chunk.value, { stream: true })
    }
  } catch {
    // a body cut by the receiver: keep what came
  }
  void reader.cancel().catch(() => undefined)
  return body.slice(0, ANSWER_BODY_BYTES)
}

/**
 * POSTs `body` to `url`, connecting to the address the policy checked (a name cannot resolve elsewhere in between);
 * answers the status, the headers and the start of the body (`bodyStart`), follows no redirect.
 */
export async function postPinned(
  url: string,
  checked: CheckedAddress | null,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
): Promise<{ status: number; response: ReceiverAnswer }> {
  const target = new URL(url)
  const lookup: LookupFunction | undefined = checked
    ? (_host, options, callback) => {
        if ((options as { all?: boolean }).all)
          (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
            { address: checked.address, family: checked.family },
          ])
        else callback(null, checked.address, checked.family)
      }
    : undefined
  const options: RequestOptions = {
    method: 'POST',
    headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
    signal,
    agent: false,
    ...(lookup ? { lookup } : {}),
  }
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest
    const req = send(target, options, resolve)
    req.on('error', (error) => reject(signal.aborted ? signal.reason : error))
    req.end(body)
  })
  const answerHeaders: Record<string, string> = {}
  for (const [name, value] of Object.entries(res.headers))
    if (value !== undefined) answerHeaders[name] = Array.isArray(value) ? value.join(', ') : value
  const stream = Readable.toWeb(res) as unknown as ReadableStream<Uint8Array>
  return {
    status: res.statusCode ?? 0,
    response: { headers: answerHeaders, body: await bodyStart(stream, signal) },
  }
}
