// GET /openapi.json and /openapi.yaml (the sandbox's own document, generated from the route table) and the docs
// page at /docs that renders it (its script is bundled beside the dashboard's and served by the same asset
// route). The table is passed in as a function: this module is part of the table it documents.
import { stringify } from 'yaml'
import { publicBaseUrl } from '../../contract/public-url.ts'
import { defineRoute } from '../../contract/route.ts'
import { buildOpenApiDocument } from './openapi.ts'
import { DOCS_PAGE } from './page.ts'
import type { AnyRoute } from './route-facts.ts'

// where the caller's base URL goes in the document's texts, made once
const BASE = '__SANDBOX_BASE_URL__'

/**
 * The document routes and the docs page, for the route table `table()`. The document is built and written (JSON
 * and YAML) on first use, then kept: writing the YAML took 200 ms of CPU, which every anonymous call paid; a call
 * only puts its base URL in.
 */
export function docsRoutes(table: () => readonly AnyRoute[]): AnyRoute[] {
  let texts: { json: string; yaml: string } | undefined
  const textOf = (format: 'json' | 'yaml', base: string) => {
    texts ??= (() => {
      // the calls of the docs page (and of tools reading the document) go to the host the caller used
      const document = {
        ...buildOpenApiDocument(table()),
        servers: [{ url: BASE, description: 'this sandbox' }],
      }
      return { json: JSON.stringify(document), yaml: stringify(document, { aliasDuplicateObjects: false }) }
    })()
    // a JSON string is a YAML double-quoted scalar too; a function, so that no `$` of the base is read as a pattern
    return format === 'json'
      ? texts.json.replace(`"${BASE}"`, () => JSON.stringify(base))
      : texts.yaml.replace(BASE, () => JSON.stringify(base))
  }
  return [
    defineRoute({
      method: 'GET',
      path: '/openapi.json',
      credentials: ['public'],
      surface: 'control',
      summary: "The sandbox's OpenAPI 3.1 document (API and control routes), generated from its route table",
      statuses: [200],
      handler: (_ctx, { request }) => ({
        status: 200,
        body: textOf('json', publicBaseUrl(request)),
        contentType: 'application/json; charset=utf-8',
      }),
    }),
    defineRoute({
      method: 'GET',
      path: '/openapi.yaml',
      credentials: ['public'],
      surface: 'control',
      summary: 'The same OpenAPI document as YAML',
      statuses: [200],
      handler: (_ctx, { request }) => ({
        status: 200,
        body: textOf('yaml', publicBaseUrl(request)),
        contentType: 'application/yaml; charset=utf-8',
      }),
    }),
    defineRoute({
      method: 'GET',
      path: '/docs',
      credentials: ['public'],
      surface: 'control',
      summary: 'The docs page: the OpenAPI document grouped by tag, with calls tried against this sandbox',
      statuses: [200],
      handler: () => ({
        status: 200,
        body: DOCS_PAGE,
        contentType: 'text/html; charset=utf-8',
        headers: { 'cache-control': 'no-cache' },
      }),
    }),
  ]
}
