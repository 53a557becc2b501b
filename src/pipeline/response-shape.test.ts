// Every answer the dispatcher gives has the same fields in the same order, whatever its route or outcome: V8 then
// gives them one hidden class, and the stages and transports that read them (journal, headers, the Node listener)
// stay monomorphic in a process that serves reads, creates and errors together.
// Record: docs/decisions/2026-12-06-one-response-shape.md.

import { describe, expect, it } from 'vitest'
import { CREATE_BODY } from '../../test/support/dispatch.ts'
import { type NeutralRequest, neutralResponse } from '../contract/neutral.ts'
import { createSandbox } from '../sandbox.ts'

describe('the dispatcher answers in one shape', () => {
  it('a memoised list, a create, a validation error, an unknown route and a read share their fields and order', async () => {
    const sandbox = await createSandbox({ chain: false })
    try {
      const headers = { 'x-api-key': 'shape-key', 'content-type': 'application/json' }
      const as = (method: string, path: string, rawBody?: string) =>
        ({ method, path, query: {}, headers, rawBody }) as NeutralRequest
      const created = await sandbox.dispatch(as('POST', '/v2/request', JSON.stringify(CREATE_BODY)))
      expect(created.status).toBe(201)
      const { requestId } = JSON.parse(created.text!) as { requestId: string }
      const answers = [
        created,
        await sandbox.dispatch(as('GET', '/v1/currencies')),
        await sandbox.dispatch(as('GET', `/v2/request/${requestId}`)),
        await sandbox.dispatch(as('POST', '/v2/request', '{"amount":"-1"}')),
        await sandbox.dispatch(as('GET', '/v2/nowhere')),
      ]
      expect(answers.map((a) => a.status)).toEqual([201, 200, 200, 400, 404])
      // the memoised list is sent from its kept bytes: the shape holds them too
      expect(answers[1]!.utf8).toBeInstanceOf(Uint8Array)
      const shapes = answers.map((a) => Object.keys(a).join(','))
      expect(new Set(shapes).size).toBe(1)
      expect(shapes[0]).toBe('status,headers,body,contentType,text,utf8,stream')
    } finally {
      await sandbox.close()
    }
  })

  it('keeps bytes only with their text, and an empty content type as none (as the handle stage read them)', () => {
    const bytes = new Uint8Array([123, 125])
    expect(neutralResponse(200, {}, {}, { utf8: bytes }).utf8).toBeUndefined()
    expect(neutralResponse(200, {}, {}, { text: '{}', utf8: bytes }).utf8).toBe(bytes)
    expect(neutralResponse(200, {}, 'x', { contentType: '' }).contentType).toBeUndefined()
    expect(neutralResponse(200, {}, 'x', { contentType: 'text/plain' }).contentType).toBe('text/plain')
  })
})
