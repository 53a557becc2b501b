// The two pages behind agreementUrl and kycUrl. They stand in for the real providers' pages (the agreement iframe
// and the identity check): HTML built here, its assets under ./assets/ (page.js bundled from ./ui/ by
// scripts/build-pages.mjs and committed, checked against a fresh bundle by a test; page.css written by hand),
// actions posted back to the same path as JSON. scripts/build.mjs copies the folder into dist/.
import { staticAssets } from '../../../contract/static-assets.ts'
import { isCompliant } from '../compliance.ts'
import type { PayerRecord } from '../schema.ts'

/** A page asset by file name (`/__sandbox/payer-pages/page.*`), or null for a name that is not one. */
export const payerPageAsset = staticAssets(new URL('./assets/', import.meta.url), {
  'page.css': 'text/css; charset=utf-8',
  'page.js': 'text/javascript; charset=utf-8',
})

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  )

/** A page (its assets one level up: `/__sandbox/payer-pages/page.*`, relative so a path prefix is kept). */
function layout(title: string, body: string, assets = '../'): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Request Sandbox</title>
<link rel="stylesheet" href="${assets}page.css">
</head><body>
<p class="note">Request Sandbox — a test stand-in for the compliance provider. Nothing here is real.</p>
${body}
<p id="error" role="alert"></p>
<script src="${assets}page.js" defer></script></body></html>`
}

const who = (p: PayerRecord) =>
  `${escapeHtml(p.firstName)} ${escapeHtml(p.lastName)}${p.companyName ? ` (${escapeHtml(p.companyName)})` : ''} &lt;${escapeHtml(p.email)}&gt;`

/** The agreement page: sign, then tell the embedding app with `postMessage({agreements: "complete"})`. */
export function agreementPage(payer: PayerRecord): string {
  const done = payer.agreementStatus === 'completed'
  return layout(
    'Agreement',
    `<h1>Off-ramp terms of service</h1>
<p>Payer: ${who(payer)}</p>
<p>By signing, the payer accepts that crypto payments made to them may be converted to fiat and sent to their bank account.</p>
<p>Agreement status: <span id="status" class="status">${payer.agreementStatus}</span></p>
${
  done
    ? '<p>The agreement is signed.</p>'
    : `<label><input type="checkbox" id="accept"> I have read and accept the terms</label><br>
<button id="sign" class="primary" disabled>Sign agreement</button>`
}`,
  )
}

const kycButtons: Record<string, string[]> = {
  initiated: ['submit', 'approve', 'reject'],
  retry_required: ['submit', 'approve', 'reject'],
  pending: ['approve', 'reject'],
  rejected: ['retry'],
}
const kycLabels: Record<string, string> = {
  submit: 'Submit documents',
  approve: 'Approve now',
  reject: 'Reject',
  retry: 'Start again',
}

/** The KYC page: submit (approved after the review delay), or decide at once: approve or reject; retry after a rejection. */
export function kycPage(payer: PayerRecord, reviewSeconds: number): string {
  const actions = kycButtons[payer.kycStatus] ?? []
  const hint =
    payer.kycStatus === 'not_started'
      ? '<p>Identity verification starts once the agreement is signed.</p>'
      : payer.kycStatus === 'initiated' || payer.kycStatus === 'retry_required'
        ? `<p>Submit documents to have them approved ${reviewSeconds} s later (tenant clock), or decide now.</p>`
        : payer.kycStatus === 'pending'
          ? `<p>Documents submitted: the sandbox approves them ${reviewSeconds} s (tenant clock) after submission, or decide now.</p>`
          : isCompliant(payer)
            ? '<p>Verified: this payer is compliant.</p>'
            : ''
  return layout(
    'Identity verification',
    `<h1>Identity verification</h1>
<p>Payer: ${who(payer)}</p>
<p>KYC status: <span id="status" class="status">${payer.kycStatus}</span></p>
${hint}
${actions.map((a) => `<button id="${a}" data-action="${a}"${a === 'submit' || a === 'approve' ? ' class="primary"' : ''}>${kycLabels[a]}</button>`).join('\n')}`,
  )
}

/** The page answered for a link the sandbox never issued. */
export function unknownLinkPage(): string {
  return layout(
    'Link not valid',
    '<h1>This link is not valid</h1><p>It was never issued, or its tenant was reset.</p>',
  )
}
