// docs/llms.txt (https://llmstxt.org): the guides summarised for coding agents, one line each (title, what it covers,
// link), generated from README.md's guide table and docs/*.md. `npm run build` writes it; a test holds the committed
// file equal to a fresh generation. The server serves it at /llms.txt with its links made absolute (/guides/<file>).
// Usage: node scripts/llms-txt.mjs [--write | --check]
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const defaultRoot = fileURLToPath(new URL('..', import.meta.url))

/** One line of markdown text: newlines folded, trimmed. */
const oneLine = (text) => text.replace(/\s*\n\s*/g, ' ').trim()

/** The first sentence of a guide's first paragraph (its summary when the README's table has no row for it). */
function firstSentence(markdown) {
  const paragraph = markdown
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .find((p) => p && !p.startsWith('#') && !p.startsWith('```') && !p.startsWith('|'))
  const text = oneLine(paragraph ?? '')
  const end = text.search(/\.(\s|$)/)
  return end < 0 ? text : text.slice(0, end + 1)
}

/** docs/llms.txt of the checkout at `root`. */
export function renderLlmsTxt(root = defaultRoot) {
  const readme = readFileSync(`${root}/README.md`, 'utf8')
  const title = /^# (.+)$/m.exec(readme)?.[1] ?? 'Request Sandbox'
  const intro = oneLine(readme.split(/\n\s*\n/)[1] ?? '').replace(/\[([^\]]+)\]\([^)]+\)/g, '$1')
  const rows = new Map()
  for (const match of readme.matchAll(/^\| \[([^\]]+)\]\(docs\/([\w-]+\.md)\) \| (.+?) \|$/gm))
    rows.set(match[2], { title: match[1], summary: match[3] })
  const files = readdirSync(`${root}/docs`)
    .filter((name) => name.endsWith('.md'))
    .sort()
  // the README's order first (the order a reader meets them), then any guide it has no row for
  const ordered = [
    ...[...rows.keys()].filter((file) => files.includes(file)),
    ...files.filter((f) => !rows.has(f)),
  ]
  const lines = ordered.map((file) => {
    const row = rows.get(file)
    if (row) return `- [${row.title}](${file}): ${row.summary}`
    const markdown = readFileSync(`${root}/docs/${file}`, 'utf8')
    const heading = /^# (.+)$/m.exec(markdown)?.[1] ?? file
    return `- [${heading}](${file}): ${firstSentence(markdown)}`
  })
  return [
    `# ${title}`,
    '',
    `> ${intro}`,
    '',
    "Every guide below is one Markdown file; its samples run in the project's test suite as written. A running sandbox also serves its OpenAPI document at /openapi.json and its tools for agents over MCP at /mcp.",
    '',
    '## Guides',
    '',
    ...lines,
    '',
  ].join('\n')
}

function main() {
  const path = `${defaultRoot}/docs/llms.txt`
  const fresh = renderLlmsTxt()
  if (process.argv.includes('--check')) {
    if (readFileSync(path, 'utf8') !== fresh) {
      console.error('docs/llms.txt is stale: run node scripts/llms-txt.mjs --write')
      process.exit(1)
    }
    return
  }
  if (process.argv.includes('--write')) writeFileSync(path, fresh)
  else process.stdout.write(fresh)
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main()
