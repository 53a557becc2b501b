import { describe, expect, it } from 'vitest'
import { declaredStates, defineState, onResume } from '../contract/world.ts'
import type { SandboxState } from '../control/services.ts'
import '../sandbox.ts'
import { createWorld } from '../store/world.ts'
import { resumeWorld } from './revival.ts'

describe('resumeWorld', () => {
  it('runs the resume hook each resource registers beside its state, the conversion stack first', () => {
    const hooks = declaredStates().flatMap((d) =>
      (d.resumes ?? []).map((r) => `${d.name}${r.first ? ' (first)' : ''}`),
    )
    expect(hooks).toEqual(
      expect.arrayContaining([
        'rates (first)',
        'requests',
        'payers',
        'payment-details',
        'payment-intents',
        'payouts',
      ]),
    )
    expect(hooks.filter((name) => name.endsWith('(first)'))).toEqual(['rates (first)'])
  })

  it('runs the `first` hooks before the others, each in declaration order, in the world it was given', async () => {
    const ran: string[] = []
    const tenant = 'resume-world-test'
    const later = defineState('resume-test-later', () => ({}))
    const first = defineState('resume-test-first', () => ({}))
    // the registry is shared by the worker's other tests: these hooks note only this test's world
    const note = (what: string) => (ctx: { world: { tenant: string } }) => {
      if (ctx.world.tenant === tenant) ran.push(what)
    }
    onResume(later, note('later 1'))
    onResume(first, note('first'), { first: true })
    onResume(later, note('later 2'))
    const world = createWorld(tenant, 'default', () => {})
    try {
      await resumeWorld(world, {} as SandboxState)
    } finally {
      world.clock.dispose()
    }
    expect(ran).toEqual(['first', 'later 1', 'later 2'])
  })
})
