// Recorded traffic into seed data: the objects a HAR recording created on the service (requests, payouts, payers and
// their bank details, client IDs, webhooks, secure payment links), as a world file the sandbox loads
// (request-sandbox fixtures, --fixtures, POST /__sandbox/fixtures). Each entry is the call's own body, so the sandbox
// makes the same object; ids the world file takes are kept (a payer's clientUserId), the others name the entry.
import type { RecordedExchange } from './har.ts'

/** The world file's bound on entries (src/control/fixtures/world-file.ts): an import past it is refused. */
export const MAX_IMPORTED_ENTRIES = 500

type Body = Record<string, unknown>
interface Payer {
  body: Body
  kyc?: string
  agreement?: string
  bankDetails?: Record<string, { body: Body; status?: string }>
}

export interface ImportedWorld {
  description: string
  key?: string
  payers?: Record<string, Payer>
  clientIds?: Record<string, { body: Body }>
  webhooks?: Record<string, { url: string; secret?: string }>
  requests?: Record<string, { body: Body; paid?: true | string }>
  payouts?: Record<string, { body: Body }>
  securePayments?: Record<string, { body: Body }>
}

export interface ImportResult {
  world: ImportedWorld
  /** entries made, by section */
  counts: Record<string, number>
  /** recorded calls that made something the import leaves out, with why */
  skipped: string[]
}

const json = (text: string | undefined): unknown => {
  if (text === undefined || text === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
const object = (value: unknown): value is Body =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
const str = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined)

/** An entry name the world file accepts (a letter, then letters, digits, _ or -), from a prefix and an id. */
function nameFor(prefix: string, id: string | undefined, taken: Set<string>): string {
  const tail = (id ?? '')
    .replace(/[^\w-]/g, '-')
    .replace(/^0x|^01(?=[0-9a-f]{64}$)/, '')
    .slice(0, 24)
  const base = tail ? `${prefix}-${tail}` : prefix
  let name = base
  for (let n = 2; taken.has(name); n++) name = `${base}-${n}`
  taken.add(name)
  return name
}

const HEX_SECRET = /^[0-9a-f]{64}$/
const KYC_STATUSES = ['not_started', 'initiated', 'pending', 'approved', 'rejected', 'retry_required']
const AGREEMENT_STATUSES = ['pending', 'completed']
const BANK_STATUSES = ['pending', 'approved', 'failed']

/** A payer's KYC and agreement states as an answer reports them, in the world file's words. */
function payerStatus(answer: Body | undefined): { kyc?: string; agreement?: string } {
  const kyc = str(answer?.kycStatus)
  const agreement = str(answer?.agreementStatus)
  return {
    ...(kyc && KYC_STATUSES.includes(kyc) ? { kyc } : {}),
    ...(agreement && AGREEMENT_STATUSES.includes(agreement) ? { agreement } : {}),
  }
}

/** The world file of the objects `exchanges` created (in order: later updates, payments and deletions apply). */
export function importFixtures(
  exchanges: RecordedExchange[],
  options: { source: string; key?: string },
): ImportResult {
  const taken = new Set<string>()
  const payers = new Map<string, Payer>()
  const clientIds = new Map<string, { body: Body }>()
  const webhooks = new Map<string, { url: string; secret?: string }>()
  const requests = new Map<string, { body: Body; paid?: true | string }>()
  const payouts = new Map<string, { body: Body }>()
  const links = new Map<string, { body: Body }>()
  const skipped: string[] = []

  for (const { request, response } of exchanges) {
    if (response.status < 200 || response.status > 299) continue
    const path = new URL(request.url, 'http://recording.invalid').pathname.replace(/\/+$/, '')
    const call = `${request.method} ${path}`
    const body = json(request.body)
    const answer = json(response.body)
    const sent = object(body) ? body : undefined
    const got = object(answer) ? answer : undefined
    if (request.body?.includes('{{') && request.method !== 'GET' && request.method !== 'DELETE') {
      skipped.push(`${call}: its body holds "{{", which a world file reads as a template`)
      continue
    }
    /** the id a call's path names between `prefix` and `suffix` (`/v2/payer/` ann `/payment-details`) */
    const idIn = (method: string, prefix: string, suffix = ''): string | undefined => {
      if (request.method !== method || !path.startsWith(prefix) || !path.endsWith(suffix)) return undefined
      const id = path.slice(prefix.length, path.length - suffix.length)
      return id && !id.includes('/') ? decodeURIComponent(id) : undefined
    }
    const payerRead = idIn('GET', '/v2/payer/')
    const read = idIn('GET', '/v2/request/')
    const payerPatched = idIn('PATCH', '/v2/payer/')
    const payerDetails = idIn('POST', '/v2/payer/', '/payment-details')
    const clientPut = idIn('PUT', '/v2/client-ids/')
    const clientDeleted = idIn('DELETE', '/v2/client-ids/')
    const webhookDeleted = idIn('DELETE', '/v2/webhook/')
    if (request.method === 'POST' && path === '/v2/request' && sent) {
      requests.set(str(got?.requestId) ?? `#${requests.size}`, { body: sent })
    } else if (read && got) {
      const entry = requests.get(read)
      if (!entry) continue
      if (got.hasBeenPaid === true) entry.paid = true
      else if (
        got.status === 'partially_paid' &&
        typeof got.paidAmount === 'string' &&
        /^\d+(\.\d+)?$/.test(got.paidAmount)
      )
        entry.paid = got.paidAmount
    } else if (request.method === 'POST' && path === '/v2/payouts' && sent) {
      payouts.set(str(got?.requestId) ?? str(got?.id) ?? `#${payouts.size}`, { body: sent })
    } else if (request.method === 'POST' && path === '/v2/payer' && sent) {
      const user = str(sent.clientUserId) ?? str(got?.clientUserId)
      if (user) payers.set(user, { body: sent, ...payerStatus(got) })
    } else if (payerRead && got) {
      const payer = payers.get(payerRead)
      if (payer) Object.assign(payer, payerStatus(got))
    } else if (payerPatched && sent) {
      const payer = payers.get(payerPatched)
      if (payer) payer.body = { ...payer.body, ...sent }
    } else if (payerDetails && sent) {
      const payer = payers.get(payerDetails)
      if (!payer) {
        skipped.push(`${call}: bank details of a payer the recording did not create`)
        continue
      }
      payer.bankDetails ??= {}
      // bank detail names are unique across payers in a world file
      const status = str(got?.status)
      payer.bankDetails[nameFor('bank', str(got?.id), taken)] = {
        body: sent,
        ...(status && BANK_STATUSES.includes(status) ? { status } : {}),
      }
    } else if (request.method === 'POST' && path === '/v2/client-ids' && sent) {
      clientIds.set(str(got?.id) ?? `#${clientIds.size}`, { body: sent })
    } else if (clientPut && sent) {
      const entry = clientIds.get(clientPut)
      if (entry) entry.body = { ...entry.body, ...sent }
    } else if (clientDeleted) {
      clientIds.delete(clientDeleted)
    } else if (request.method === 'POST' && path === '/v2/webhook' && sent && str(sent.url)) {
      const secret = str(got?.secret)
      webhooks.set(str(got?.id) ?? `#${webhooks.size}`, {
        url: sent.url as string,
        // a recording keeps only a secret's shape: only a real one (a HAR from elsewhere) is pinned
        ...(secret && HEX_SECRET.test(secret) && /[1-9b-f]/.test(secret) ? { secret } : {}),
      })
    } else if (webhookDeleted) {
      webhooks.delete(webhookDeleted)
    } else if (request.method === 'POST' && path === '/v2/secure-payments' && sent) {
      links.set(str(got?.token) ?? `#${links.size}`, { body: sent })
    } else if (request.method === 'POST' && /^\/v1\/(request|pay)$/.test(path)) {
      skipped.push(`${call}: v1 objects are not in the world file (create them with v2)`)
    }
  }

  const section = <T>(prefix: string, map: Map<string, T>): Record<string, T> | undefined => {
    if (map.size === 0) return undefined
    const out: Record<string, T> = {}
    for (const [id, entry] of map) out[nameFor(prefix, id.startsWith('#') ? undefined : id, taken)] = entry
    return out
  }
  const payerSection: ImportedWorld['payers'] = payers.size ? {} : undefined
  for (const [id, payer] of payers) {
    payerSection![nameFor('payer', id, taken)] = payer
  }
  const world: ImportedWorld = {
    description: `Imported from ${options.source} by request-sandbox fixtures import`,
    ...(options.key ? { key: options.key } : {}),
  }
  const sections = {
    payers: payerSection,
    clientIds: section('client', clientIds),
    webhooks: section('webhook', webhooks),
    requests: section('request', requests),
    payouts: section('payout', payouts),
    securePayments: section('link', links),
  }
  const counts: Record<string, number> = {}
  for (const [name, entries] of Object.entries(sections)) {
    if (!entries) continue
    ;(world as unknown as Record<string, unknown>)[name] = entries
    counts[name] = Object.keys(entries).length
  }
  return { world, counts, skipped }
}
