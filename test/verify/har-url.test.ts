// A recording's URL is the base the call went to with the call's path appended as is: a path that starts with two
// slashes (an app whose base URL ends with a slash) stays a path of that base, never another host.
import { expect, it } from 'vitest'
import { readHar, toEntry } from '../../src/verify/har.ts'

const exchange = (url: string) => ({
  request: { method: 'GET', url, headers: {} },
  response: { status: 404, headers: {}, body: '' },
})

it('records a path with a double slash under the base it was sent to', () => {
  for (const base of ['http://127.0.0.1:3000', 'https://api.example.com/base/']) {
    const entry = toEntry(base, exchange('//v2/request?x=1'))
    expect(entry.request.url).toBe(`${base.replace(/\/$/, '')}//v2/request?x=1`)
    const har = JSON.stringify({ log: { version: '1.2', entries: [entry] } })
    expect(readHar(har).exchanges[0]!.request.url).toBe(
      `${new URL(base).pathname.replace(/\/$/, '')}//v2/request?x=1`,
    )
  }
})

it('records an ordinary path and an absolute URL as before', () => {
  expect(toEntry('https://api.example.com/base', exchange('/v2/request')).request.url).toBe(
    'https://api.example.com/base/v2/request',
  )
  expect(toEntry('http://127.0.0.1:3000/', exchange('/v2/currencies?a=b')).request.url).toBe(
    'http://127.0.0.1:3000/v2/currencies?a=b',
  )
})
