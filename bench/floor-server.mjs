// The floor of node:http: a server writing a precomputed constant answer for the two benchmarked calls, the same
// bytes the sandbox answers with (the currency list; a created request's shape), headers built once. It does no work
// per call beyond node:http's own (parse, write); a POST's body is read and dropped. `npm run bench -- throughput`
// measures the sandbox against it and against bench/bare-server.mjs (which re-serialises and parses per call).
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'

const currencies = Buffer.from(
  JSON.stringify(
    JSON.parse(readFileSync(new URL('../fixtures/currencies.json', import.meta.url), 'utf8')).map(
      ({ permit: _permit, ...c }) => c,
    ),
  ),
)
const created = Buffer.from(
  JSON.stringify({
    paymentReference: '0x0123456789abcdef',
    requestId: `01${'0123456789abcdef'.repeat(4)}`,
  }),
)
const headersOf = (body) => ({
  'content-type': 'application/json; charset=utf-8',
  'content-length': body.length,
  'x-content-type-options': 'nosniff',
})
const readHeaders = headersOf(currencies)
const createHeaders = headersOf(created)

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url.startsWith('/v1/currencies')) {
    res.writeHead(200, readHeaders)
    res.end(currencies)
    return
  }
  if (req.method === 'POST' && req.url === '/v2/request') {
    req.resume()
    req.on('end', () => {
      res.writeHead(201, createHeaders)
      res.end(created)
    })
    return
  }
  res.writeHead(404).end()
})
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  process.stdout.write(`listening ${server.address().port}\n`)
})
