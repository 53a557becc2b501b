// A secure payment token names its world through an index (token -> key and scenario), kept like the directory's
// other indexes: the public payment page (api-features/secure-payment-pages.mdx: "anyone with the link can open
// it") reads only the world that holds the token. A guessed token touches no world (with --state-dir it brings
// none back from disk), and a real one opens its link even when its world waits on disk past --max-worlds, after
// a restart too.
import { expect, it, vi } from 'vitest'
import { newApiKey } from '../support/clients.ts'
import { useTestSandbox } from '../support/test-sandbox.ts'

const { tempDir, start, restart, call } = useTestSandbox()

const KEYS = 6
const MAX_WORLDS = 2

it('the page reads only the world a token names: a guessed one touches none, a real one opens past --max-worlds and after a restart', async () => {
  let sandbox = await start({ stateDir: tempDir('sp-index-'), maxWorlds: MAX_WORLDS })
  const tokens: string[] = []
  for (let i = 0; i < KEYS; i++) {
    const created = await call('POST', '/v2/secure-payments', newApiKey(), {
      requests: [
        {
          payee: '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7',
          currency: 'FAU-sepolia',
          amount: String(i + 1),
        },
      ],
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    tokens.push(created.body.token)
  }
  const opens = async () => {
    const statuses: number[] = []
    for (const token of tokens)
      statuses.push((await call('GET', `/__sandbox/secure-payments/${token}`, null)).status)
    return statuses
  }
  // worlds past --max-worlds wait on disk: their links still open
  expect(await opens()).toEqual(tokens.map(() => 200))

  const guessed = async () => {
    const all = vi.spyOn(sandbox.shared.tenants, 'all')
    const get = vi.spyOn(sandbox.shared.tenants, 'get')
    const res = await call('GET', `/__sandbox/secure-payments/01JGUESSEDTOKEN0000000000`, null)
    const touched = all.mock.calls.length + get.mock.calls.length
    all.mockRestore()
    get.mockRestore()
    return { status: res.status, touched }
  }
  expect(await guessed()).toEqual({ status: 404, touched: 0 })

  sandbox = await restart()
  // at once after the restart (the saved worlds not back yet): the guess brings none back
  expect(await guessed()).toEqual({ status: 404, touched: 0 })
  expect(sandbox.shared.tenants.size).toBeLessThanOrEqual(MAX_WORLDS)
  expect(await opens()).toEqual(tokens.map(() => 200))
})
