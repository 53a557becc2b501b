// The supported Node agrees everywhere: package.json `engines`, the README, the Docker image and every installed
// dependency's own `engines` (npm warns EBADENGINE otherwise). Read from the lock file, so a dependency upgrade that
// drops the oldest supported Node fails here rather than on a user's install.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const root = new URL('../../', import.meta.url)
const read = (path: string) => readFileSync(new URL(path, root), 'utf8')
const manifest = JSON.parse(read('package.json')) as { engines: { node: string } }
const lock = JSON.parse(read('package-lock.json')) as {
  packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean; os?: string[] }>
}

type Version = [number, number, number]
const parse = (v: string): Version => {
  const [a = 0, b = 0, c = 0] = v.replace(/^v/, '').split('.').map(Number)
  return [a, b, c]
}
const compare = (x: Version, y: Version) => x[0] - y[0] || x[1] - y[1] || x[2] - y[2]

/** Whether `version` satisfies an npm range of the forms dependencies use (`^a.b.c`, `>=a.b`, `a`, `a.x`, `||`, spaces). */
function satisfies(version: string, range: string): boolean {
  const v = parse(version)
  return range.split('||').some((alternative) =>
    alternative
      .trim()
      .replace(/(>=|<=|>|<|\^|~|=)\s+/g, '$1')
      .split(/\s+/)
      .filter(Boolean)
      .every((comparator) => {
        const m = /^(>=|<=|>|<|\^|~|=)?v?(\d+)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?$/.exec(comparator)
        if (!m) {
          if (comparator === '*') return true
          throw new Error(`a range form this check does not read: ${JSON.stringify(range)}`)
        }
        const [, op = '', major, minor, patch] = m
        const wild = (p?: string) => p === undefined || p === 'x' || p === '*'
        const base: Version = [
          Number(major),
          wild(minor) ? 0 : Number(minor),
          wild(patch) ? 0 : Number(patch),
        ]
        const c = compare(v, base)
        switch (op) {
          case '>=':
            return c >= 0
          case '>':
            return c > 0
          case '<':
            return c < 0
          case '<=':
            return c <= 0
          case '^':
            return c >= 0 && v[0] === base[0]
          case '~':
            return c >= 0 && v[0] === base[0] && (wild(minor) || v[1] === base[1])
          default:
            if (wild(minor)) return v[0] === base[0]
            if (wild(patch)) return v[0] === base[0] && v[1] === base[1]
            return c === 0
        }
      }),
  )
}

const oldest = /^>=\s*(\d+\.\d+(?:\.\d+)?)$/.exec(manifest.engines.node)?.[1]

describe('the supported Node', () => {
  it('is one lower bound in package.json, said in the README', () => {
    expect(oldest, 'engines.node is ">=a.b"').toBeDefined()
    expect(read('README.md')).toContain(`Node ${oldest} or newer`)
  })

  it('is supported by every dependency in the lock file (no EBADENGINE on install)', () => {
    const refusing = Object.entries(lock.packages)
      .filter(([path, p]) => path && !Array.isArray(p.engines) && p.engines?.node)
      .filter(
        ([, p]) =>
          !satisfies(`${oldest}.0`.split('.').slice(0, 3).join('.'), (p.engines as { node: string }).node),
      )
      .map(
        ([path, p]) =>
          `${path.replace(/^.*node_modules\//, '')} wants node ${(p.engines as { node: string }).node}`,
      )
    expect(refusing).toEqual([])
  })

  it('runs the Docker image on a Node the engines allow', () => {
    const images = [...read('Dockerfile').matchAll(/^FROM node:(\d+)/gm)].map((m) => m[1]!)
    expect(images.length).toBeGreaterThan(0)
    for (const major of images) expect(satisfies(`${major}.0.0`, manifest.engines.node)).toBe(true)
  })

  it('reads the ranges dependencies write', () => {
    expect(satisfies('20.19.0', '^20.19.0 || ^22.13.0 || >=24.0.0')).toBe(true)
    expect(satisfies('20.19.0', '>=22.0.0')).toBe(false)
    expect(satisfies('20.19.0', '>= 22.19.0')).toBe(false)
    expect(satisfies('20.19.0', '18 || 20 || >=22')).toBe(true)
    expect(satisfies('20.19.0', '>=23.5.0 || ^22.13.0 || ^20.17.0')).toBe(true)
    expect(satisfies('20.19.0', '^20.20.0')).toBe(false)
  })
})
