// An example shop's checkout page, as an app would write it: it finds wallets through EIP-6963, asks the
// Request Network API for the payment's transactions, has the chosen wallet send them, and waits for the payment.
// (A real shop calls the API from its server; this example takes the key from its URL to stay one file.)
const params = new URLSearchParams(location.search)
const api = params.get('api')
const apiKey = params.get('apiKey')
const requestId = params.get('requestId')
const statusLine = document.getElementById('status')

async function call(path) {
  const response = await fetch(`${api}${path}`, { headers: { 'x-api-key': apiKey } })
  if (!response.ok) throw new Error(`${path} answered ${response.status}`)
  return response.json()
}

async function waitFor(check, what) {
  for (let i = 0; i < 300; i++) {
    const value = await check()
    if (value) return value
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`timed out waiting for ${what}`)
}

async function pay(provider) {
  statusLine.textContent = 'Connecting…'
  const [from] = await provider.request({ method: 'eth_requestAccounts' })
  const { transactions } = await call(`/v2/request/${requestId}/pay?wallet=${from}`)
  for (const [i, tx] of transactions.entries()) {
    statusLine.textContent = `Sending transaction ${i + 1} of ${transactions.length}…`
    const hash = await provider.request({
      method: 'eth_sendTransaction',
      params: [{ from, to: tx.to, data: tx.data, value: tx.value.hex }],
    })
    const receipt = await waitFor(
      () => provider.request({ method: 'eth_getTransactionReceipt', params: [hash] }),
      'the receipt',
    )
    if (receipt.status !== '0x1') throw new Error(`transaction ${hash} reverted`)
  }
  statusLine.textContent = 'Waiting for the payment to be detected…'
  await waitFor(async () => (await call(`/v2/request/${requestId}`)).hasBeenPaid, 'the payment')
  statusLine.textContent = 'Paid'
}

window.addEventListener('eip6963:announceProvider', (event) => {
  const { info, provider } = event.detail
  const button = document.createElement('button')
  button.textContent = `Pay with ${info.name}`
  button.addEventListener('click', () =>
    pay(provider).catch((error) => {
      statusLine.textContent = `Payment failed: ${error.message}`
    }),
  )
  document.getElementById('wallets').append(button)
})
window.dispatchEvent(new Event('eip6963:requestProvider'))

call(`/v2/request/${requestId}`).then(
  (request) => {
    document.getElementById('invoice').textContent =
      `Invoice ${request.reference ?? ''}: ${request.amount ?? ''}`
  },
  (error) => {
    document.getElementById('invoice').textContent = error.message
  },
)
