import type { NeutralResponse } from '../contract/neutral.ts'

/**
 * The bytes and content type both transports send for a neutral response (identical on purpose); a body of bytes
 * with its content type (an image) is sent as it is.
 */
export function serializeResponse(response: NeutralResponse): {
  text: string | Uint8Array<ArrayBuffer> | null
  contentType: string | null
} {
  if (response.body === undefined || response.status === 204) return { text: null, contentType: null }
  if (response.contentType)
    return {
      text: response.body instanceof Uint8Array ? new Uint8Array(response.body) : String(response.body),
      contentType: response.contentType,
    }
  return {
    text: response.text ?? JSON.stringify(response.body),
    contentType: 'application/json; charset=utf-8',
  }
}
