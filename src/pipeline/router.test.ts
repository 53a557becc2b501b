// The router finds, for every method and path, the route the table's first-match order names: it is compared with
// a linear scan of one regular expression per route (`^path/?$`, a parameter `([^/]+)`) over sample paths made from
// every route of the table, and on the routes that overlap today.
import { describe, expect, it } from 'vitest'
import { routes } from '../routes.ts'
import { createRouter, type RoutePattern } from './router.ts'

/** The reference: each route's path as a regular expression, tried in table order. */
function linearScan(table: readonly RoutePattern[]) {
  const compiled = table.map((route) => {
    const names: string[] = []
    const source = route.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:(\w+)/g, (_, name: string) => {
      names.push(name)
      return '([^/]+)'
    })
    return { route, pattern: new RegExp(`^${source}/?$`), names }
  })
  const first = (path: string, method?: string) => {
    for (let index = 0; index < compiled.length; index++) {
      const candidate = compiled[index]!
      if (method !== undefined && candidate.route.method !== method) continue
      const values = candidate.pattern.exec(path)
      if (values) return { index, names: candidate.names, values: values.slice(1) }
    }
    return undefined
  }
  return first
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']

/** Paths made from every route: parameters filled with plain values, with every static segment of the table (so
 * routes that overlap meet), encoded and odd values; then with a trailing slash, two, a segment more or less. */
function samplePaths(table: readonly RoutePattern[]): string[] {
  const statics = [...new Set(table.flatMap((r) => r.path.split('/')).filter((s) => s && !s.startsWith(':')))]
  const fillers = ['x', 'req_123', '0xAbC', 'a%2Fb', '%E0%A4%A', 'a:b', '..', '-', ...statics]
  const paths = new Set<string>([
    '',
    '/',
    '//',
    '///',
    '/v2',
    '/v2/',
    'v2/request',
    '/V2/REQUEST',
    '/v2//request',
  ])
  for (const { path } of table) {
    const segments = path.split('/')
    const params = segments.flatMap((segment, i) => (segment.startsWith(':') ? [i] : []))
    // every filler at one parameter at a time, `x` at the others
    const filled = [segments.map((s) => (s.startsWith(':') ? 'x' : s))]
    for (const at of params)
      for (const filler of fillers)
        filled.push(segments.map((s, i) => (i === at ? filler : s.startsWith(':') ? 'x' : s)))
    for (const parts of filled) {
      const p = parts.join('/')
      paths.add(p)
      paths.add(`${p}/`)
      paths.add(`${p}//`)
      paths.add(`${p}/extra`)
      paths.add(parts.slice(0, -1).join('/'))
      paths.add(p.replace(/\/[^/]*$/, '/'))
    }
  }
  return [...paths]
}

describe('router', () => {
  const router = createRouter(routes)
  const reference = linearScan(routes)
  const paths = samplePaths(routes)

  it('matches what the linear first-match scan matches, for every method and sample path of the table', () => {
    expect(paths.length).toBeGreaterThan(routes.length * 4)
    let matched = 0
    const differences: string[] = []
    for (const path of paths)
      for (const method of METHODS) {
        const expected = reference(path, method)
        const found = router.match(method, path)
        if (expected) matched++
        const got = found && { index: found.index, names: found.names, values: found.values }
        if (JSON.stringify(got) !== JSON.stringify(expected))
          differences.push(`${method} ${path}: ${JSON.stringify(got)}, not ${JSON.stringify(expected)}`)
      }
    expect(differences).toEqual([])
    // every route is reached by its own sample path
    for (const route of routes) {
      const plain = route.path.replace(/:\w+/g, 'x')
      expect(router.match(route.method, plain)?.index, `${route.method} ${route.path}`).toBe(
        reference(plain, route.method)?.index,
      )
    }
    expect(matched).toBeGreaterThan(routes.length * 4)
  })

  it('matches whatever the method, as a preflight asks, like the linear scan over every route', () => {
    const differences = paths.filter((path) => router.matchAnyMethod(path)?.index !== reference(path)?.index)
    expect(differences).toEqual([])
  })

  it("keeps the table's order where two routes overlap today (the earlier one wins)", () => {
    const overlapping = [
      ['GET', '/v2/secure-payments/multicall-payouts/pay'],
      ['GET', '/v2/payee-destination/signing-data'],
    ] as const
    for (const [method, path] of overlapping) {
      const found = router.match(method, path)
      expect(found?.index).toBe(reference(path, method)?.index)
      // both routes match the path: the router picked the first of them
      const all = routes
        .map((route, index) => ({ route, index }))
        .filter(({ route }) => route.method === method && linearScan([route])(path, method))
      expect(all.length).toBe(2)
      expect(found?.index).toBe(all[0]!.index)
    }
  })

  it('lets the first declared route win between a parameter and a static segment, whichever comes first', () => {
    const table: RoutePattern[] = [
      { method: 'GET', path: '/a/:id' },
      { method: 'GET', path: '/a/static' },
      { method: 'GET', path: '/b/static/x' },
      { method: 'GET', path: '/b/:id/:more' },
      { method: 'GET', path: '/' },
    ]
    const router = createRouter(table)
    const reference = linearScan(table)
    for (const path of [
      '/a/static',
      '/a/other',
      '/b/static/x',
      '/b/static/y',
      '/b/other/x',
      '/',
      '//',
      '/a/',
    ])
      expect(router.match('GET', path)?.index, path).toBe(reference(path, 'GET')?.index)
    expect(router.match('GET', '/a/static')?.index).toBe(0)
    expect(router.match('GET', '/b/static/x')?.index).toBe(2)
    expect(router.match('GET', '/b/static/y')).toMatchObject({ index: 3, values: ['static', 'y'] })
    expect(router.match('POST', '/a/static')).toBeUndefined()
  })

  it('refuses a parameter that is not a whole segment', () => {
    expect(() => createRouter([{ method: 'GET', path: '/a/:id.json' }])).toThrow(/whole segment/)
    expect(() => createRouter([{ method: 'GET', path: 'a' }])).toThrow(/start with \//)
  })
})
