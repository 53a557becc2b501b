import { expect, it } from 'vitest'
import { loadCurrencyCatalog } from './catalog.ts'

it('keeps a list answer with its JSON text and that text as UTF-8 bytes, computed once per query', () => {
  const catalog = loadCurrencyCatalog()
  let computed = 0
  const list = () => {
    computed++
    return catalog.all.map((c) => catalog.publicOf(c))
  }
  const first = catalog.memo('all', list)
  const again = catalog.memo('all', list)
  expect(computed).toBe(1)
  expect(again).toBe(first)
  expect(first.text).toBe(JSON.stringify(first.value))
  // the list names tokens outside Latin-1 (₮): its bytes are longer than its text, and decode back to it
  expect(first.utf8.byteLength).toBe(Buffer.byteLength(first.text))
  expect(first.utf8.byteLength).toBeGreaterThan(first.text.length)
  expect(new TextDecoder().decode(first.utf8)).toBe(first.text)
})
