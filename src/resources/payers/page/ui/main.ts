// The agreement and KYC pages' script: the agreement's sign button (then the message the real provider's page sends
// to the app that embeds it) and the KYC actions, each posted as JSON to the page's own path.
const errorLine = () => document.getElementById('error') as HTMLElement

async function act(body: Record<string, unknown>): Promise<Record<string, unknown>> {
  errorLine().textContent = ''
  const res = await fetch(location.pathname, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  const json = (await res.json().catch(() => ({}))) as { message?: string } & Record<string, unknown>
  if (!res.ok) {
    errorLine().textContent = json.message || `Error ${res.status}`
    throw new Error(json.message)
  }
  return json
}

const accept = document.getElementById('accept') as HTMLInputElement | null
const sign = document.getElementById('sign') as HTMLButtonElement | null
if (accept && sign) {
  accept.addEventListener('change', () => {
    sign.disabled = !accept.checked
  })
  sign.addEventListener('click', async () => {
    sign.disabled = true
    try {
      const state = await act({ agreementCompleted: true })
      ;(document.getElementById('status') as HTMLElement).textContent = String(state.agreementStatus)
      // what the real provider's page sends to the app that embeds it
      window.parent.postMessage({ agreements: 'complete' }, '*')
    } catch {
      sign.disabled = false
    }
  })
}

const buttons = () => document.querySelectorAll<HTMLButtonElement>('button')
for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-action]')) {
  button.addEventListener('click', async () => {
    for (const b of buttons()) b.disabled = true
    try {
      await act({ action: button.dataset.action })
      location.reload()
    } catch {
      for (const b of buttons()) b.disabled = false
    }
  })
}
