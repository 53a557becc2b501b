// The registry stores scenario names only: `get` tells names apart by the Map alone, so a name that is not a
// scenario name (from any caller of `add`) must never be stored, nor found by a header naming it.
import { describe, expect, it } from 'vitest'
import type { ScenarioDefinition } from './define.ts'
import { ScenarioRegistry } from './registry.ts'

const scenario = (name: string): ScenarioDefinition => ({
  name,
  description: 'A test scenario.',
  creates: {},
})

describe('the scenario registry', () => {
  it('refuses to store a name that is not a scenario name, and never answers for it', () => {
    const registry = new ScenarioRegistry()
    for (const name of [
      'Not A Name',
      'upper-Case',
      'a b',
      'a\u0000b',
      '../up',
      '-dash',
      'x'.repeat(65),
      '',
    ]) {
      expect(() => registry.add([scenario(name)], 'this test'), JSON.stringify(name)).toThrow(
        /lower-case words joined by dashes/,
      )
      expect(registry.get(name)).toBeUndefined()
    }
    expect(registry.names()).toEqual(['default'])
  })

  it('stores scenario names and finds them by exactly that name', () => {
    const registry = new ScenarioRegistry()
    registry.add([scenario('two-words'), scenario('x'.repeat(64))], 'this test')
    expect(registry.get('two-words')?.name).toBe('two-words')
    expect(registry.get('x'.repeat(64))?.name).toBe('x'.repeat(64))
    expect(registry.get('Two-Words')).toBeUndefined()
    expect(registry.get(' two-words')).toBeUndefined()
    expect(() => registry.add([scenario('two-words')], 'again')).toThrow(/already defined/)
  })
})
