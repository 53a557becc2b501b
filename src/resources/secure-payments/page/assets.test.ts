// The committed page.js is what scripts/build-pages.mjs builds from page/ui today (run it after a UI change).
import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'

it('the committed Secure Payment Page bundle matches a fresh build of page/ui', async () => {
  const script = '../../../../scripts/build-pages.mjs'
  const { bundlePage } = (await import(script)) as { bundlePage(resource: string): Promise<string> }
  const committed = readFileSync(new URL('./assets/page.js', import.meta.url), 'utf8')
  expect(committed === (await bundlePage('secure-payments'))).toBe(true)
})
