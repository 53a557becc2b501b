// The pages orchestrators bring: the hosted onboarding page behind a link intent's `url` (plain HTML, a form
// posted back to the same path: no script, nothing loaded from elsewhere) and the branding assets the Secure
// Payment app bundles under `/branding/{brand}/` (whitelabel-branding.mdx: no remote fetch). The sandbox bundles
// one brand, `sandbox`: `/branding/sandbox/logo.png`, `terms.html`, `privacy.html`; any other path is a 404,
// which the page shows as broken branding, as the hosted app does.
import type { BrandingRecord, LinkIntentRecord } from '../schema.ts'

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  )

/** The files of the bundled brand, by path. */
export const BRANDING_ASSETS: Record<string, { contentType: string; body: string | Uint8Array }> = {
  '/branding/sandbox/logo.png': {
    contentType: 'image/png',
    body: Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAGAAAAAgCAYAAADtwH1UAAAAl0lEQVR4nO2TwQ2AIBAE6cSvVmBVFmw1EBtQ8IBbYCbZ/2UmFwIAGLj2O3rfsAyP7Nx53zoVJeIJURmLfCIYqSGfCD+pKZ8IhbSQT4RMWsonQgYEcKSHfCK8oBJgO8442whAAAIQQDlAT/lfEbxl8QECwggw2QhAAAIME2BpkO8MAQRAvgDIFwD5AiBfAOSLgHhBkA1DkwDhXpdAr13HZwAAAABJRU5ErkJggg==',
      'base64',
    ),
  },
  '/branding/sandbox/terms.html': {
    contentType: 'text/html; charset=utf-8',
    body: '<!doctype html><meta charset="utf-8"><title>Terms</title><h1>Sandbox brand: terms of service</h1><p>A placeholder legal page bundled with the Request Sandbox.</p>',
  },
  '/branding/sandbox/privacy.html': {
    contentType: 'text/html; charset=utf-8',
    body: '<!doctype html><meta charset="utf-8"><title>Privacy</title><h1>Sandbox brand: privacy policy</h1><p>A placeholder legal page bundled with the Request Sandbox.</p>',
  },
}

/** The onboarding page's Content-Security-Policy: no script at all, forms post back here only. */
export const ONBOARDING_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

const DEFAULTS = {
  pageBackgroundColor: '#f3f4f6',
  cardBackgroundColor: '#ffffff',
  primaryActionColor: '#00d395',
  primaryTextColor: '#475569',
  secondaryTextColor: '#94a3b8',
}

function layout(title: string, branding: BrandingRecord | null, body: string): string {
  const c = {
    ...DEFAULTS,
    ...Object.fromEntries(Object.entries(branding ?? {}).filter(([k]) => k in DEFAULTS)),
  }
  const logo = branding?.logoPath ? `<img class="logo" src="${escapeHtml(branding.logoPath)}" alt="">` : ''
  const legal = [
    branding?.termsPath ? `<a href="${escapeHtml(branding.termsPath)}">Terms</a>` : '',
    branding?.privacyPath ? `<a href="${escapeHtml(branding.privacyPath)}">Privacy</a>` : '',
  ].filter(Boolean)
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Request Sandbox</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;margin:0;background:${c.pageBackgroundColor};color:${c.primaryTextColor}}
main{max-width:34rem;margin:2rem auto;padding:1.5rem;background:${c.cardBackgroundColor};border-radius:12px}
h1{font-size:1.3rem} .note,label span{color:${c.secondaryTextColor};font-size:.9rem}
label{display:block;margin:.75rem 0} input,select{font:inherit;width:100%;padding:.4rem;box-sizing:border-box}
button{font:inherit;padding:.6rem 1.2rem;border:0;border-radius:8px;background:${c.primaryActionColor};color:#fff;cursor:pointer}
.error{color:#b3261e;font-weight:600} .logo{max-height:40px} footer{margin-top:1rem;font-size:.85rem} footer a{margin-right:1rem}
</style></head><body><main>
${logo}
<p class="note">Request Sandbox: a stand-in for Request Network's hosted onboarding. Nothing here is real.</p>
${body}
${legal.length ? `<footer>${legal.join('')}</footer>` : ''}
</main></body></html>`
}

/** The form of an intent the platform can still complete. */
export function onboardingPage(
  intent: LinkIntentRecord,
  branding: BrandingRecord | null,
  tokens: { id: string; label: string }[],
  error?: string,
): string {
  const plan = intent.kyt
    ? `<p>Screening plan set by the orchestrator: ${intent.kyt.providers
        .map(
          (p, i) =>
            `${i === 0 ? 'primary' : 'backup'} <strong>${escapeHtml(p.provider)}</strong>${p.policyId ? ` (policy ${escapeHtml(p.policyId)})` : ''}`,
        )
        .join(', ')}. It cannot be changed.</p>`
    : `<label><span>Transaction screening</span><select name="kyt">
<option value="none">No screening</option><option value="hypernative">Hypernative</option><option value="merklescience">Merkle Science</option>
</select></label>`
  return layout(
    'Connect your platform',
    branding,
    `<h1>Connect ${escapeHtml(intent.clientIdName)}</h1>
<p>Confirm the wallet that receives your payments and the token you want to be paid in. A client ID named
<strong>${escapeHtml(intent.clientIdName)}</strong> is created and linked to the orchestrator.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post">
<label><span>Wallet address</span><input name="walletAddress" required pattern="0x[0-9a-fA-F]{40}" placeholder="0x…"></label>
<label><span>Payment destination token</span><select name="currency">${tokens
      .map((t) => `<option value="${escapeHtml(t.id)}">${escapeHtml(t.label)}</option>`)
      .join('')}</select></label>
${plan}
<label><input type="checkbox" name="confirm" value="yes" required> I confirm the connection to this orchestrator</label>
<button type="submit">Connect</button>
</form>`,
  )
}

/** What the page shows once the intent is done, or when it cannot be used. */
export function onboardingResultPage(
  title: string,
  message: string,
  branding: BrandingRecord | null,
  clientId?: string,
): string {
  return layout(
    title,
    branding,
    `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>${clientId ? `<p>Client ID: <code id="client-id">${escapeHtml(clientId)}</code></p>` : ''}`,
  )
}
