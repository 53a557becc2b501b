// Route matching: the route stage of the pipeline. Routes are Express-style paths (`/v2/request/:requestId/pay`)
// whose segments are either static text or one whole `:name` parameter; a parameter matches one non-empty segment,
// and a path may end with one extra `/`. Routes are kept in a tree per method, one level per segment (static
// children by name, one parameter child), so a lookup walks the path's segments instead of trying every route.
// When several routes match a path, the one declared first in the table wins, whatever kind of segment it has.

/** What the router needs of a route. */
export interface RoutePattern {
  method: string
  path: string
}

/** A matched route: its parameter names in path order, with the raw (still percent-encoded) values. */
export interface RouteMatch<R> {
  route: R
  /** the route's position in the table the router was built from */
  index: number
  names: readonly string[]
  values: string[]
}

interface Leaf<R> {
  route: R
  index: number
  names: string[]
}

interface Node<R> {
  statics: Map<string, Node<R>>
  param: Node<R> | undefined
  /** the first route of the table that ends here (a later one with the same shape never matches) */
  leaf: Leaf<R> | undefined
}

const newNode = <R>(): Node<R> => ({ statics: new Map(), param: undefined, leaf: undefined })

/** `:name` as a whole segment (the names the path patterns used: letters, digits, underscore). */
const PARAM = /^:(\w+)$/

/** Route matching over a table, first declared first: `match(method, path)`, or `matchAnyMethod(path)`. */
export interface Router<R> {
  match(method: string, path: string): RouteMatch<R> | undefined
  /** the first route of any method whose path matches (what a preflight, which names no method, is answered by) */
  matchAnyMethod(path: string): RouteMatch<R> | undefined
}

export function createRouter<R extends RoutePattern>(routes: readonly R[]): Router<R> {
  const trees = new Map<string, Node<R>>()
  routes.forEach((route, index) => {
    if (!route.path.startsWith('/')) throw new Error(`route path ${route.path} does not start with /`)
    let tree = trees.get(route.method)
    if (!tree) {
      tree = newNode<R>()
      trees.set(route.method, tree)
    }
    let node = tree
    const names: string[] = []
    for (const segment of route.path.split('/')) {
      const param = PARAM.exec(segment)
      if (param) {
        names.push(param[1]!)
        node.param ??= newNode<R>()
        node = node.param
      } else {
        if (segment.includes(':'))
          throw new Error(
            `route path ${route.path}: a parameter must be a whole segment (/:name), not part of ${segment}`,
          )
        let child = node.statics.get(segment)
        if (!child) {
          child = newNode<R>()
          node.statics.set(segment, child)
        }
        node = child
      }
    }
    node.leaf ??= { route, index, names }
  })

  function lookup(tree: Node<R>, path: string): RouteMatch<R> | undefined {
    let best = bestOf(tree, path.split('/'))
    // one trailing slash is optional: `/v2/request/` is `/v2/request`
    if (path.endsWith('/')) {
      const trimmed = bestOf(tree, path.slice(0, -1).split('/'))
      if (trimmed && (!best || trimmed.index < best.index)) best = trimmed
    }
    return best
  }

  // A path without parameters always finds the same route: what the tree finds for each route's own path (and
  // with its trailing slash) is looked up once here, so such a call (POST /v2/request) costs one Map lookup.
  const exact = new Map<string, Map<string, Readonly<RouteMatch<R>>>>()
  for (const [method, tree] of trees) {
    const paths = new Map<string, Readonly<RouteMatch<R>>>()
    for (const route of routes) {
      if (route.method !== method || route.path.includes(':')) continue
      for (const path of [route.path, `${route.path}/`]) {
        const found = lookup(tree, path)
        if (found)
          paths.set(path, Object.freeze({ ...found, values: Object.freeze(found.values) as string[] }))
      }
    }
    exact.set(method, paths)
  }

  return {
    match(method, path) {
      const known = exact.get(method)?.get(path)
      if (known) return known
      const tree = trees.get(method)
      return tree ? lookup(tree, path) : undefined
    },
    matchAnyMethod(path) {
      let best: RouteMatch<R> | undefined
      for (const tree of trees.values()) {
        const found = lookup(tree, path)
        if (found && (!best || found.index < best.index)) best = found
      }
      return best
    },
  }
}

type Best<R> = RouteMatch<R>

/**
 * The first-declared route under `node` that matches `segments` from `at` on, with its parameter values: both the
 * static child and the parameter child are tried, and the lower table index wins.
 */
function bestOf<R>(node: Node<R>, segments: readonly string[]): Best<R> | undefined {
  return walk(node, segments, 0, [], undefined)
}

function walk<R>(
  at: Node<R>,
  segments: readonly string[],
  i: number,
  values: string[],
  best: Best<R> | undefined,
): Best<R> | undefined {
  if (i === segments.length) {
    const { leaf } = at
    if (leaf && (!best || leaf.index < best.index))
      return { route: leaf.route, index: leaf.index, names: leaf.names, values: values.slice() }
    return best
  }
  const segment = segments[i]!
  const child = at.statics.get(segment)
  if (child) best = walk(child, segments, i + 1, values, best)
  if (at.param && segment !== '') {
    values.push(segment)
    best = walk(at.param, segments, i + 1, values, best)
    values.pop()
  }
  return best
}
