// The bare twin: a node:http server answering the same JSON as the sandbox for the two benchmarked calls, doing
// per call what a plain JSON API does: it re-serialises the currency list on every GET and parses every POST body
// (bench/floor-server.mjs is the floor: constant answers written as they are).
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'

const currencies = JSON.parse(
  readFileSync(new URL('../fixtures/currencies.json', import.meta.url), 'utf8'),
).map(({ permit: _permit, ...c }) => c)
const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url.startsWith('/v1/currencies')) {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
    res.end(JSON.stringify(currencies))
    return
  }
  if (req.method === 'POST' && req.url === '/v2/request') {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      JSON.parse(Buffer.concat(chunks).toString('utf8'))
      res.writeHead(201, { 'content-type': 'application/json; charset=utf-8' })
      res.end(
        JSON.stringify({
          paymentReference: `0x${randomBytes(8).toString('hex')}`,
          requestId: `01${randomBytes(32).toString('hex')}`,
        }),
      )
    })
    return
  }
  res.writeHead(404).end()
})
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  process.stdout.write(`listening ${server.address().port}\n`)
})
