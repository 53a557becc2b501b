// Issue 29: the rule of a shared demo, for every route present and future. Each route says here who may call it and
// what a call can leave behind; a route added to the table (src/routes.ts) fails this file until its row is written,
// and every bound a row names must be a flag of the command, documented in docs/shared-demo.md and proven by a test
// that drives it past the bound.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { routes } from '../../src/routes.ts'

/**
 * What a call can leave behind, and what bounds it:
 * - `read`: nothing (a read, a login answered from what exists);
 * - `own-world`: API objects in the caller's own world (its key's requests, payers, client IDs, ...), sized by the
 *   body limits; no other key sees or pays for them;
 * - `token`: the object behind an unguessable link token (the payer pages, the Secure Payment Page): the link's owner's
 *   world, reached only with the token its owner handed out;
 * - any other value: a thing that lives on or costs the process, named in `BOUNDS` below.
 */
type Leaves = 'read' | 'own-world' | 'token' | keyof typeof BOUNDS

/**
 * Each bound: the flags that set it (options of the command, in its --help and docs/shared-demo.md; none where the
 * bound is fixed) and the test that drives a caller past it (`proof`, which must show `shows`).
 */
const BOUNDS = {
  streams: {
    flags: ['--max-streams', '--max-streams-total'],
    proof: 'test/control/stream-bounds.test.ts',
    shows: /toBe\(429\)[\s\S]*--max-streams-total/,
  },
  snapshots: {
    flags: ['--max-snapshots', '--snapshot-key-mb', '--snapshot-total-mb'],
    proof: 'test/snapshots/snapshot-bounds.test.ts',
    shows: /toBe\(507\)/,
  },
  challenges: { flags: ['--max-challenges'], proof: 'test/portal/portal-challenges.test.ts', shows: /429/ },
  signups: {
    flags: ['--signup-rate'],
    proof: 'test/shared-demo/shared-demo.test.ts',
    shows: /signupsPerMinute: 3/,
  },
  webhooks: {
    flags: ['--max-webhooks'],
    proof: 'test/shared-demo/shared-demo.test.ts',
    shows: /at most 3 webhooks/,
  },
  deliveries: {
    flags: ['--webhook-rate', '--webhook-total'],
    proof: 'test/shared-demo/shared-demo.test.ts',
    shows: /attemptsPerMinute: 2/,
  },
  onboarding: {
    flags: ['--max-onboarded-platforms', '--max-link-intents'],
    proof: 'test/orchestrators/orchestrator-isolation.test.ts',
    shows: /429[\s\S]*--max-link-intents/,
  },
  clock: {
    flags: ['--max-clock-advance'],
    proof: 'test/shared-demo/shared-demo.test.ts',
    shows: /clock\/advance/,
  },
  rpc: {
    flags: ['--rpc-admin', '--rpc-executing'],
    proof: 'test/control/rpc-guard.test.ts',
    shows: /--rpc-admin/,
  },
  // fixed bounds: a world file's sizes, counts and time, one upload at a time per key
  fixtures: { flags: [], proof: 'test/control/fixtures-bounds.test.ts', shows: /toBe\(429\)/ },
  // 30 mints a key a minute on a shared listener, kept across resets, every key together --faucet-total (claimed
  // keys half of it); it only adds to others' balances
  faucet: {
    flags: ['--faucet-total'],
    proof: 'test/claimable/claim-faucet-total.test.ts',
    shows: /toBe\(429\)[\s\S]*--faucet-total/,
  },
  // TronGrid's surface: reads, and broadcasts their signer pays for; unknown methods 404
  tron: { flags: [], proof: 'test/tron/node-methods.test.ts', shows: /404/ },
  // session tokens: 100 live a key (sandbox-wide directory entries), ended or expired ones free their place
  sessions: { flags: [], proof: 'test/client-ids/sessions-bound.test.ts', shows: /toBe\(429\)/ },
  // the Secure Payment Page's test wallet: each link owner's own, refilled before use
  'test-wallet': { flags: [], proof: 'test/shared-demo/shared-demo-keys.test.ts', shows: /testWallet/ },
} satisfies Record<string, { flags: string[]; proof: string; shows: RegExp }>

/** Who may call each route (`public`: anyone; `key`: a credential of the route's kinds) and what it leaves behind. */
const POLICY: Record<string, ['public' | 'key', Leaves]> = {
  'GET /v1/currencies': ['key', 'read'],
  'GET /v2/currencies': ['key', 'read'],
  'GET /v1/currencies/:currencyId/conversion-routes': ['key', 'read'],
  'GET /v2/currencies/:currencyId/conversion-routes': ['key', 'read'],
  'GET /v2/request/:requestId/pay': ['key', 'read'],
  'GET /v1/request/:paymentReference/pay': ['key', 'read'],
  'GET /v1/request/:paymentReference/routes': ['key', 'read'],
  'GET /v2/request/:requestId/routes': ['key', 'read'],
  'POST /v2/request/payment-intents/:paymentIntentId': ['key', 'own-world'],
  'POST /v1/request/:paymentIntentId/send': ['key', 'own-world'],
  'POST /v2/request': ['key', 'own-world'],
  'POST /v1/request': ['key', 'own-world'],
  'GET /v2/request': ['key', 'read'],
  'GET /v2/request/:requestId': ['key', 'read'],
  'PATCH /v2/request/:requestId': ['key', 'own-world'],
  'GET /v1/request/:paymentReference': ['key', 'read'],
  'PATCH /v1/request/:paymentReference/stop-recurrence': ['key', 'own-world'],
  'POST /v2/payouts/batch': ['key', 'own-world'],
  'POST /v1/pay': ['key', 'own-world'],
  'POST /v2/payouts': ['key', 'own-world'],
  'POST /v2/payouts/recurring/:id': ['key', 'own-world'],
  'GET /v2/payouts/recurring/:id': ['key', 'read'],
  'PATCH /v2/payouts/recurring/:id': ['key', 'own-world'],
  'POST /v2/secure-payments': ['key', 'own-world'],
  'GET /v2/secure-payments': ['key', 'read'],
  'POST /v2/secure-payments/payouts': ['key', 'own-world'],
  'POST /v2/secure-payments/batch-payouts': ['key', 'own-world'],
  'POST /v2/secure-payments/multicall-payouts': ['key', 'own-world'],
  'GET /v2/secure-payments/multicall-payouts/:token': ['key', 'read'],
  'POST /v2/secure-payments/fees/preview': ['key', 'own-world'],
  'GET /v2/secure-payments/:token': ['key', 'read'],
  'GET /v2/secure-payments/:token/pay': ['key', 'read'],
  'POST /v2/secure-payments/:token/calldata': ['key', 'own-world'],
  'POST /v2/secure-payments/:token/intent': ['key', 'own-world'],
  'POST /v2/secure-payments/:token/refresh-step-transaction': ['key', 'own-world'],
  'POST /v2/secure-payments/:token/permit': ['key', 'own-world'],
  'POST /v2/secure-payments/:token/tron/broadcast': ['key', 'own-world'],
  'GET /__sandbox/secure-payment': ['public', 'read'],
  'GET /__sandbox/secure-payment/:asset': ['public', 'read'],
  'GET /__sandbox/secure-payments/:token': ['public', 'read'],
  'GET /__sandbox/secure-payments/:token/pay': ['public', 'read'],
  'POST /__sandbox/secure-payments/:token/permit': ['public', 'token'],
  'POST /__sandbox/secure-payments/:token/tron/broadcast': ['public', 'token'],
  'POST /__sandbox/secure-payments/:token/user-events': ['public', 'token'],
  'GET /__sandbox/secure-payments/:token/chain': ['public', 'read'],
  'POST /__sandbox/secure-payments/:token/test-wallet/send': ['public', 'test-wallet'],
  'GET /__sandbox/health': ['public', 'read'],
  'GET /__sandbox/chain': ['public', 'read'],
  'POST /rpc': ['public', 'rpc'],
  'POST /rpc/:network': ['public', 'rpc'],
  'GET /__sandbox/clock': ['key', 'read'],
  'POST /__sandbox/clock/advance': ['key', 'clock'],
  'GET /__sandbox/rates': ['key', 'read'],
  'POST /__sandbox/rates': ['key', 'own-world'],
  'DELETE /__sandbox/rates': ['key', 'own-world'],
  'GET /v2/payments': ['key', 'read'],
  'POST /v1/payer': ['key', 'own-world'],
  'GET /v1/payer/:clientUserId': ['key', 'read'],
  'PATCH /v1/payer/:clientUserId': ['key', 'own-world'],
  'POST /v2/payer': ['key', 'own-world'],
  'GET /v2/payer/:clientUserId': ['key', 'read'],
  'PATCH /v2/payer/:clientUserId': ['key', 'own-world'],
  'POST /v1/payer/:clientUserId/payment-details': ['key', 'own-world'],
  'GET /v1/payer/:clientUserId/payment-details': ['key', 'read'],
  'POST /v2/payer/:clientUserId/payment-details': ['key', 'own-world'],
  'GET /v2/payer/:clientUserId/payment-details': ['key', 'read'],
  'POST /v2/client-ids': ['key', 'own-world'],
  'GET /v2/client-ids': ['key', 'read'],
  'GET /v2/client-ids/:id': ['key', 'read'],
  'PUT /v2/client-ids/:id': ['key', 'own-world'],
  'DELETE /v2/client-ids/:id': ['key', 'own-world'],
  'POST /v1/client-ids': ['key', 'own-world'],
  'GET /v1/client-ids': ['key', 'read'],
  'GET /v1/client-ids/:id': ['key', 'read'],
  'PUT /v1/client-ids/:id': ['key', 'own-world'],
  'DELETE /v1/client-ids/:id': ['key', 'own-world'],
  'POST /__sandbox/payers/:clientUserId/compliance': ['key', 'own-world'],
  'POST /__sandbox/payers/:clientUserId/payment-details/:id': ['key', 'own-world'],
  'GET /__sandbox/payer-pages/:file': ['public', 'read'],
  'GET /__sandbox/payer-pages/:token/agreement': ['public', 'read'],
  'POST /__sandbox/payer-pages/:token/agreement': ['public', 'token'],
  'GET /__sandbox/payer-pages/:token/kyc': ['public', 'read'],
  'POST /__sandbox/payer-pages/:token/kyc': ['public', 'token'],
  'POST /__sandbox/sessions': ['key', 'sessions'],
  'DELETE /__sandbox/sessions/:token': ['key', 'own-world'],
  'POST /__sandbox/reset': ['key', 'own-world'],
  'GET /__sandbox/scenarios': ['key', 'read'],
  'GET /__sandbox/scenario': ['key', 'read'],
  'PUT /__sandbox/scenario': ['key', 'own-world'],
  'POST /__sandbox/faucet': ['key', 'faucet'],
  'GET /__sandbox/journal': ['key', 'read'],
  'GET /__sandbox/events': ['key', 'read'],
  'POST /__sandbox/events': ['key', 'deliveries'],
  'POST /__sandbox/webhooks': ['key', 'webhooks'],
  'GET /__sandbox/webhooks/deliveries': ['key', 'read'],
  'POST /__sandbox/webhooks/:deliveryId/redeliver': ['key', 'deliveries'],
  'GET /__sandbox/triggers': ['public', 'read'],
  'POST /__sandbox/trigger': ['key', 'deliveries'],
  'GET /__sandbox/webhooks/listen': ['key', 'streams'],
  'POST /__sandbox/webhooks/listen/answers/:attemptId': ['key', 'own-world'],
  'PUT /__sandbox/webhooks/chaos': ['key', 'own-world'],
  'GET /__sandbox/webhooks/chaos': ['key', 'read'],
  'GET /__sandbox/webhooks/deliveries/:deliveryId': ['key', 'read'],
  'POST /__sandbox/fixtures': ['key', 'fixtures'],
  'POST /__sandbox/snapshots': ['key', 'snapshots'],
  'GET /__sandbox/snapshots': ['key', 'read'],
  'POST /__sandbox/snapshots/:name/restore': ['key', 'snapshots'],
  'DELETE /__sandbox/snapshots/:name': ['key', 'own-world'],
  'POST /v1/webhook': ['key', 'webhooks'],
  'GET /v1/webhook': ['key', 'read'],
  'POST /v1/webhook/test': ['key', 'deliveries'],
  'PUT /v1/webhook/:webhookId': ['key', 'own-world'],
  'DELETE /v1/webhook/:webhookId': ['key', 'own-world'],
  'POST /v2/webhook': ['key', 'webhooks'],
  'GET /v2/webhook': ['key', 'read'],
  'POST /v2/webhook/test': ['key', 'deliveries'],
  'PUT /v2/webhook/:webhookId': ['key', 'own-world'],
  'DELETE /v2/webhook/:webhookId': ['key', 'own-world'],
  'POST /v2/request-tech': ['key', 'webhooks'],
  'GET /v2/request-tech': ['key', 'read'],
  'POST /v2/request-tech/test': ['key', 'deliveries'],
  'PUT /v2/request-tech/:webhookId': ['key', 'own-world'],
  'DELETE /v2/request-tech/:webhookId': ['key', 'own-world'],
  'GET /v2/payee-destination/signing-data': ['key', 'read'],
  'POST /v2/payee-destination': ['key', 'own-world'],
  'GET /v2/payee-destination': ['key', 'read'],
  'GET /v2/payee-destination/:destinationId': ['key', 'read'],
  'DELETE /v2/payee-destination/:destinationId': ['key', 'own-world'],
  'POST /v1/payee-destination': ['key', 'own-world'],
  'PUT /v1/payee-destination': ['key', 'own-world'],
  'GET /v1/payee-destination': ['key', 'read'],
  'GET /v1/payee-destination/payout-lookup': ['key', 'read'],
  'GET /v1/payee-destination/lookup': ['key', 'read'],
  'PATCH /v1/payee-destination/deactivate': ['key', 'own-world'],
  'POST /v1/auth/wallet/challenge': ['public', 'challenges'],
  'POST /v1/auth/wallet/verify': ['public', 'read'],
  'POST /v1/auth/register': ['public', 'signups'],
  'POST /v1/auth/login': ['public', 'signups'],
  'POST /v1/auth/logout': ['key', 'own-world'],
  'POST /v1/key': ['key', 'signups'],
  'GET /v1/key': ['key', 'read'],
  'PUT /v1/key/:id': ['key', 'own-world'],
  'DELETE /v1/key/:id': ['key', 'own-world'],
  'POST /v2/auth/register': ['public', 'signups'],
  'POST /v2/auth/login': ['public', 'signups'],
  'POST /v2/auth/logout': ['key', 'own-world'],
  'POST /v2/key': ['key', 'signups'],
  'GET /v2/key': ['key', 'read'],
  'PUT /v2/key/:id': ['key', 'own-world'],
  'DELETE /v2/key/:id': ['key', 'own-world'],
  'GET /v2/platforms/me': ['key', 'read'],
  'POST /v2/journey': ['key', 'own-world'],
  'POST /v2/journey/:queryId': ['key', 'own-world'],
  'GET /v2/journey/:journeyId': ['public', 'read'],
  'GET /v2/orchestrators/client-ids': ['key', 'read'],
  'POST /v2/orchestrators/client-ids': ['key', 'own-world'],
  'DELETE /v2/orchestrators/client-ids/:clientId': ['key', 'own-world'],
  'POST /v2/orchestrators/client-id-link-intents': ['key', 'onboarding'],
  'POST /v2/orchestrators/branding': ['key', 'own-world'],
  'GET /v2/orchestrators/branding': ['key', 'read'],
  'PATCH /v2/orchestrators/branding': ['key', 'own-world'],
  'DELETE /v2/orchestrators/branding': ['key', 'own-world'],
  'POST /v2/orchestrators/webhooks/test': ['key', 'deliveries'],
  'POST /v2/orchestrators/webhooks': ['key', 'webhooks'],
  'GET /v2/orchestrators/webhooks': ['key', 'read'],
  'PATCH /v2/orchestrators/webhooks/:id': ['key', 'own-world'],
  'DELETE /v2/orchestrators/webhooks/:id': ['key', 'own-world'],
  'POST /v2/orchestrators/fee-configs': ['key', 'own-world'],
  'GET /v2/orchestrators/fee-configs': ['key', 'read'],
  'PATCH /v2/orchestrators/fee-configs/:id': ['key', 'own-world'],
  'DELETE /v2/orchestrators/fee-configs/:id': ['key', 'own-world'],
  'GET /__sandbox/orchestrator': ['key', 'read'],
  'GET /__sandbox/orchestrator-onboarding': ['public', 'read'],
  'POST /__sandbox/orchestrator-onboarding': ['public', 'onboarding'],
  'GET /branding/:brand/:file': ['public', 'read'],
  'POST /v2/commerce-payments/authorize/calldata': ['key', 'own-world'],
  'POST /v2/commerce-payments/:requestId/authorize': ['key', 'own-world'],
  'POST /v2/commerce-payments/:requestId/capture/calldata': ['key', 'own-world'],
  'POST /v2/commerce-payments/:requestId/capture': ['key', 'own-world'],
  'POST /v2/commerce-payments/:requestId/void/calldata': ['key', 'own-world'],
  'POST /v2/commerce-payments/:requestId/void': ['key', 'own-world'],
  'GET /v2/commerce-payments/:requestId/status': ['key', 'read'],
  'POST /v2/commerce-payments/:requestId/refund/calldata': ['key', 'own-world'],
  'POST /tron/wallet/:method': ['public', 'tron'],
  'POST /tron/walletsolidity/:method': ['public', 'tron'],
  'GET /tron/wallet/:method': ['public', 'tron'],
  'GET /tron/walletsolidity/:method': ['public', 'tron'],
  'GET /': ['public', 'read'],
  'GET /__sandbox': ['public', 'read'],
  'GET /__sandbox/dashboard/:file': ['public', 'read'],
  'GET /__sandbox/keys': ['public', 'read'],
  'GET /__sandbox/state': ['key', 'read'],
  'GET /__sandbox/transactions/:hash': ['key', 'read'],
  'GET /__sandbox/stream': ['key', 'streams'],
  'GET /openapi.json': ['public', 'read'],
  'GET /openapi.yaml': ['public', 'read'],
  'GET /docs': ['public', 'read'],
  'GET /llms.txt': ['public', 'read'],
  'GET /guides/:file': ['public', 'read'],
}

const cliSource = readFileSync(new URL('../../src/cli.ts', import.meta.url), 'utf8')
const sharedDemo = readFileSync(new URL('../../docs/shared-demo.md', import.meta.url), 'utf8')

describe('every route has a row: who may call it, and what bounds what it leaves behind', () => {
  const served = routes.map((r) => `${r.method} ${r.path}`)

  it('lists every route of the table and nothing else', () => {
    expect(rowProblems(served)).toEqual([])
  })

  it('catches a route added without a row, and a row left behind by a removed route', () => {
    expect(rowProblems([...served, 'POST /__sandbox/new-thing'])).toEqual([
      'POST /__sandbox/new-thing has no row: say who may call it and what bounds what it leaves behind',
    ])
    expect(rowProblems(served.filter((route) => route !== 'GET /__sandbox/stream'))).toEqual([
      'GET /__sandbox/stream has a row but no route',
    ])
  })

  it('says public exactly for the routes that take no credential', () => {
    for (const route of routes) {
      const [who] = POLICY[`${route.method} ${route.path}`]!
      expect(`${route.method} ${route.path}: ${who}`).toBe(
        `${route.method} ${route.path}: ${route.credentials.includes('public') ? 'public' : 'key'}`,
      )
    }
  })

  it('leaves nothing behind on a GET but a stream or the Tron node (reads only)', () => {
    const leaving = Object.entries(POLICY)
      .filter(([route, [, leaves]]) => route.startsWith('GET ') && leaves !== 'read')
      .map(([route, [, leaves]]) => `${route} ${leaves}`)
    expect(leaving.sort()).toEqual(
      [
        'GET /__sandbox/stream streams',
        'GET /__sandbox/webhooks/listen streams',
        'GET /tron/wallet/:method tron',
        'GET /tron/walletsolidity/:method tron',
      ].sort(),
    )
  })

  it('names for every bound a flag of the command, documented for operators, and a test that drives it', () => {
    for (const [name, bound] of Object.entries(BOUNDS)) {
      for (const flag of bound.flags) {
        expect(cliSource, `${name}: ${flag} is an option of the command`).toContain(`'${flag.slice(2)}': {`)
        expect(cliSource, `${name}: ${flag} is in --help`).toContain(`  ${flag} `)
        expect(sharedDemo, `${name}: ${flag} is in docs/shared-demo.md`).toContain(flag)
      }
      const proof = readFileSync(new URL(`../../${bound.proof}`, import.meta.url), 'utf8')
      expect(proof, `${bound.proof} drives ${name} past its bound`).toMatch(bound.shows)
    }
  })

  it('uses every bound it names', () => {
    const used = new Set(Object.values(POLICY).map(([, leaves]) => leaves))
    for (const name of Object.keys(BOUNDS)) expect(used.has(name as Leaves), name).toBe(true)
  })
})

/** What keeps the table and the served routes from matching, one line each. */
function rowProblems(served: string[]): string[] {
  return [
    ...served
      .filter((route) => !(route in POLICY))
      .map((route) => `${route} has no row: say who may call it and what bounds what it leaves behind`),
    ...Object.keys(POLICY)
      .filter((route) => !served.includes(route))
      .map((route) => `${route} has a row but no route`),
  ]
}
