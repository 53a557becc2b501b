// In-process cost of one POST /v2/request through the dispatcher (no HTTP, no chain), for profiling the create path:
// `npx tsx bench/dispatch-create.ts` or `node --cpu-prof --import tsx bench/dispatch-create.ts`.
import { createSandbox } from '../src/sandbox.ts'

const sb = await createSandbox({ chain: false })
const body = JSON.stringify({
  amount: '10',
  invoiceCurrency: 'FAU-sepolia',
  paymentCurrency: 'FAU-sepolia',
  payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
})
const creq = {
  method: 'POST',
  path: '/v2/request',
  query: {},
  headers: { 'x-api-key': 'k', 'content-type': 'application/json', host: '127.0.0.1:8080' },
  rawBody: body,
}
// the figure is the create path's only if the call creates: an error answer (auth, validation) is far cheaper
const first = await sb.dispatch(creq)
if (first.status !== 201) throw new Error(`POST /v2/request answered ${first.status}, not 201`)
for (let i = 0; i < 5000; i++) await sb.dispatch(creq)
const t = performance.now()
for (let i = 0; i < 30000; i++) await sb.dispatch(creq)
console.log('create µs', (((performance.now() - t) / 30000) * 1000).toFixed(1))
await sb.close()
