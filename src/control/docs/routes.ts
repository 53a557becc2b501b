// GET /openapi.json and /openapi.yaml (the sandbox's own document, generated from the route table) and the docs
// page at /docs that renders it (its script is bundled beside the dashboard's and served by the same asset
// route). The table is passed in as a function: this module is part of the table it documents.
import { stringify } from 'yaml'
import { publicBaseUrl } from '../../contract/public-url.ts'
import { defineRoute } from '../../contract/route.ts'
import { buildOpenApiDocument } from './openapi.ts'
import { DOCS_PAGE } from './page.ts'
import type { AnyRoute } from './route-facts.ts'

/** The document routes and the docs page, for the route table `table()` (read on first use, then kept). */
export function docsRoutes(table: () => readonly AnyRoute[]): AnyRoute[] {
  let document: Record<string, unknown> | undefined
  const documentFor = (base: string) => {
    document ??= buildOpenApiDocument(table())
    // the calls of the docs page (and of tools reading the document) go to the host the caller used
    return { ...document, servers: [{ url: base, description: 'this sandbox' }] }
  }
  return [
    defineRoute({
      method: 'GET',
      path: '/openapi.json',
      credentials: ['public'],
      surface: 'control',
      summary: "The sandbox's OpenAPI 3.1 document (API and control routes), generated from its route table",
      statuses: [200],
      handler: (_ctx, { request }) => ({ status: 200, body: documentFor(publicBaseUrl(request)) }),
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
        body: stringify(documentFor(publicBaseUrl(request)), { aliasDuplicateObjects: false }),
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
