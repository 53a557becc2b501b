// docs/llms.txt is the fresh generation of scripts/llms-txt.mjs from README.md and docs/ (like the dashboard's bundle),
// links every guide and nothing else, and the server's /llms.txt links resolve: each to its guide's Markdown.
import { readdirSync, readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server.ts'

const docs = new URL('../../docs/', import.meta.url)
const committed = readFileSync(new URL('llms.txt', docs), 'utf8')
const guides = readdirSync(docs).filter((f) => f.endsWith('.md'))

const script = '../../scripts/llms-txt.mjs'
const { renderLlmsTxt } = (await import(script)) as { renderLlmsTxt(): string }

let server: RunningServer
beforeAll(async () => {
  server = await startServer({ port: 0, chain: false })
}, 60_000)
afterAll(async () => {
  await server?.close()
})

describe('docs/llms.txt', () => {
  it('is what scripts/llms-txt.mjs generates now (run: node scripts/llms-txt.mjs --write)', () => {
    expect(committed).toBe(renderLlmsTxt())
  })

  it('links every guide once, each to a file that exists, with a one-line summary', () => {
    const links = [...committed.matchAll(/^- \[([^\]]+)\]\(([^)]+)\): (.+)$/gm)]
    expect(links.map((m) => m[2]).sort()).toEqual(guides.sort())
    for (const [, title, , summary] of links) {
      expect(title!.length).toBeGreaterThan(2)
      expect(summary!.length).toBeGreaterThan(10)
    }
  })
})

describe('GET /llms.txt', () => {
  it('serves it as text with absolute links, each answering its guide as Markdown', async () => {
    const answer = await fetch(`${server.url}/llms.txt`)
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain/)
    const text = await answer.text()
    const links = [...text.matchAll(/\]\((http[^)]+)\)/g)].map((m) => m[1]!)
    expect(links).toHaveLength(guides.length)
    for (const link of links) {
      expect(link.startsWith(`${server.url}/guides/`)).toBe(true)
      const guide = await fetch(link)
      expect(guide.status, link).toBe(200)
      expect(guide.headers.get('content-type')).toMatch(/^text\/markdown/)
      const file = link.slice(link.lastIndexOf('/') + 1)
      expect(await guide.text()).toBe(readFileSync(new URL(file, docs), 'utf8'))
    }
  })

  it('serves only the guides it lists: anything else is a 404 in the error shape', async () => {
    for (const path of [
      '/guides/nope.md',
      '/guides/toString',
      '/guides/..%2Fpackage.json',
      '/guides/llms.txt',
    ]) {
      const answer = await fetch(`${server.url}${path}`)
      expect(answer.status, path).toBe(404)
      expect(await answer.json()).toMatchObject({ statusCode: 404 })
    }
  })
})
