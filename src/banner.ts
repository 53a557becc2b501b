// What the server prints when it is ready, as anvil does: where everything is (API, dashboard, docs, chains), then
// every funded account with its private key and the mnemonic they come from. The first line always names the
// URL ("Request Sandbox listening on <url>"): scripts started with --port 0 read it from there.
import { DEFAULT_MNEMONIC } from './chain/start-chain.ts'
import type { RunningServer } from './server.ts'
import { TRON_PATH } from './tron/index.ts'

/** What the banner says beside the server itself. */
export interface BannerFacts {
  readyMs: number
  apiKeys?: string[]
  /** the server-wide webhook target and whether its secret came from the command line */
  webhook?: { url: string; secret: string; secretGiven: boolean }
}

/** The banner as text lines (`quiet`: only the first). */
export function bannerLines(server: RunningServer, facts: BannerFacts, quiet = false): string[] {
  const { url, sandbox } = server
  const lines = [`Request Sandbox listening on ${url} (ready in ${facts.readyMs} ms)`]
  if (quiet) return lines
  const scenarios = sandbox.shared.scenarios
  lines.push(
    `  API:       ${url}/v2/request  (any x-api-key${facts.apiKeys?.length ? `; strict: ${facts.apiKeys.join(', ')}` : ''})`,
    `  dashboard: ${url}/`,
    `  docs:      ${url}/docs  (OpenAPI: ${url}/openapi.json, ${url}/openapi.yaml)`,
    `  health:    ${url}/__sandbox/health`,
    `  scenario:  ${scenarios.defaultScenario} (of ${scenarios.registry.names().length}: GET /__sandbox/scenarios)`,
  )
  if (facts.webhook)
    lines.push(
      `  webhooks:  every event to ${facts.webhook.url} (secret ${facts.webhook.secretGiven ? 'from --webhook-secret' : facts.webhook.secret})`,
    )
  for (const c of sandbox.chains.values()) {
    const alias = c === sandbox.chain ? ` (also ${url}/rpc)` : ''
    lines.push(
      `  chain:     ${c.network} (chain id ${c.chainId}), JSON-RPC at ${url}/rpc/${c.network}${alias}`,
    )
    if (c.tron)
      lines.push(`  tron:      TronWeb fullHost ${url}${TRON_PATH}  (T… addresses: GET /__sandbox/chain)`)
  }
  const accounts = sandbox.chain?.accounts ?? []
  if (accounts.length) {
    lines.push(
      '',
      'Available Accounts (10,000 ETH and 1,000,000 of every token on each chain)',
      '==================',
      ...accounts.map((a, i) => `(${i}) ${a.address}`),
      '',
      'Private Keys',
      '==================',
      ...accounts.map((a, i) => `(${i}) ${a.privateKey}`),
      '',
      'Wallet',
      '==================',
      `Mnemonic:          ${DEFAULT_MNEMONIC}`,
      `Derivation path:   m/44'/60'/0'/0/`,
    )
  }
  lines.push('')
  return lines
}

/** The banner as one JSON object (`--log-format json`), so every line of the output parses. */
export function bannerJson(server: RunningServer, facts: BannerFacts): Record<string, unknown> {
  const { url, sandbox } = server
  return {
    type: 'ready',
    message: `Request Sandbox listening on ${url}`,
    url,
    readyMs: facts.readyMs,
    dashboard: `${url}/`,
    docs: `${url}/docs`,
    openapi: `${url}/openapi.json`,
    scenario: sandbox.shared.scenarios.defaultScenario,
    ...(facts.apiKeys?.length ? { apiKeys: facts.apiKeys } : {}),
    ...(facts.webhook ? { webhookUrl: facts.webhook.url } : {}),
    chains: [...sandbox.chains.values()].map((c) => ({
      network: c.network,
      chainId: c.chainId,
      rpcUrl: `${url}/rpc/${c.network}`,
      ...(c.tron ? { fullHost: `${url}${TRON_PATH}` } : {}),
    })),
    accounts: (sandbox.chain?.accounts ?? []).map((a) => ({ address: a.address, privateKey: a.privateKey })),
    ...(sandbox.chain ? { mnemonic: DEFAULT_MNEMONIC } : {}),
  }
}
