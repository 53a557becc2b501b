import { describe, expect, it } from 'vitest'
import { maskedPath, tracedPath, tracedUrl } from './trace-redaction.ts'

describe('trace redaction', () => {
  it('keeps a route pattern with plain parameters, a secret-named one as {name}', () => {
    expect(tracedPath('/v2/secure-payments/:token/pay', { token: 'abc123' })).toBe(
      '/v2/secure-payments/{token}/pay',
    )
    expect(tracedPath('/__sandbox/payer-pages/:token/kyc', { token: 'x' })).toBe(
      '/__sandbox/payer-pages/{token}/kyc',
    )
    expect(tracedPath('/v2/request/:requestId/pay', { requestId: '01abc' })).toBe('/v2/request/01abc/pay')
    expect(tracedPath('/v2/request/:requestId', { requestId: 'a b' })).toBe('/v2/request/{masked}')
  })

  it('masks every segment of an unmatched path but words', () => {
    expect(maskedPath('/v2/secure-payments/Zx9q_secret/no-such-thing')).toBe(
      '/v2/secure-payments/{masked}/no-such-thing',
    )
    expect(maskedPath('/v2/SecretWithCaps')).toBe('/v2/{masked}')
  })

  it("redacts a URL's credentials, query values and non-word path segments", () => {
    expect(
      tracedUrl('https://user:pw@hooks.example.com/services/T01/B02/xyz?token=s3&sig=s4&mode=a#frag'),
    ).toBe(
      'https://REDACTED:REDACTED@hooks.example.com/services/{masked}/{masked}/xyz?token=REDACTED&sig=REDACTED&mode=REDACTED',
    )
    expect(tracedUrl('not a url')).toBe('{masked}')
  })

  it('redacts every query value of a URL, whatever the receiver named its secret (names stay)', () => {
    const url = tracedUrl('https://hooks.example.com/in?pwd=hunter2&hmac=d41d8cd9&s=Zq81&pass=pw1&mode=a')
    for (const secret of ['hunter2', 'd41d8cd9', 'Zq81', 'pw1']) expect(url).not.toContain(secret)
    expect(url).toBe(
      'https://hooks.example.com/in?pwd=REDACTED&hmac=REDACTED&s=REDACTED&pass=REDACTED&mode=REDACTED',
    )
  })

  it('masks a query name that is not a word: a bare `?<token>` is a secret in the name', () => {
    const url = tracedUrl('https://hooks.example.com/in?9f8e7d6c5b4a&Zq81Secret=1&mode=a')
    for (const secret of ['9f8e7d6c5b4a', 'Zq81Secret']) expect(url).not.toContain(secret)
    expect(url).toBe('https://hooks.example.com/in?{masked}=REDACTED&{masked}=REDACTED&mode=REDACTED')
  })

  it("masks a host label that is not a word (a receiver's secret subdomain), keeps addresses and ports", () => {
    expect(tracedUrl('https://eo3k9x2abc.m.pipedream.net/')).toBe('https://{masked}.m.pipedream.net/')
    expect(tracedUrl('http://127.0.0.1:9/hook')).toBe('http://127.0.0.1:9/hook')
    expect(tracedUrl('http://[::1]:8080/hook')).toBe('http://[::1]:8080/hook')
    expect(tracedUrl('https://hooks.example.com:8443/in')).toBe('https://hooks.example.com:8443/in')
    // a receiver's id made of letters only, left of the site's name; the site's own name and short words kept
    expect(tracedUrl('https://abcdefghijkl.m.pipedream.net/x')).toBe('https://{masked}.m.pipedream.net/x')
    expect(tracedUrl('https://webhooks.api.requestnetwork.io/in')).toBe(
      'https://webhooks.api.requestnetwork.io/in',
    )
    expect(tracedUrl('https://hooks.example.com./in')).toBe('https://hooks.example.com./in')
    expect(tracedUrl('https://abcdefghijkl.example.com./in')).toBe('https://{masked}.example.com./in')
  })

  it("shows an asset route's file when it is a word, masks anything else sent there (a token on the wrong path)", () => {
    expect(tracedPath('/__sandbox/payer-pages/:file', { file: 'app.js' })).toBe(
      '/__sandbox/payer-pages/app.js',
    )
    expect(tracedPath('/__sandbox/payer-pages/:file', { file: 'pp_9f8e7d6c5b4a3f2e' })).toBe(
      '/__sandbox/payer-pages/{masked}',
    )
    // a secure payment link's token put in the path instead of its query meets the page's asset route
    expect(tracedPath('/__sandbox/secure-payment/:asset', { asset: '01JABCDEF0123456789XYZABCD' })).toBe(
      '/__sandbox/secure-payment/{masked}',
    )
    expect(tracedPath('/__sandbox/secure-payment/:asset', { asset: 'pay.js' })).toBe(
      '/__sandbox/secure-payment/pay.js',
    )
  })
})
