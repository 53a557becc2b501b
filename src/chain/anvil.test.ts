import { afterEach, describe, expect, it, vi } from 'vitest'

vi.mock('node:module', async (importOriginal) => {
  const original = await importOriginal<typeof import('node:module')>()
  return {
    ...original,
    // as when npm skipped the optional platform package (--omit=optional)
    createRequire: () => ({
      resolve: (id: string) => {
        throw new Error(`Cannot find module '${id}'`)
      },
    }),
  }
})

const { anvilBinaryPath } = await import('./anvil.ts')
const platform = Object.getOwnPropertyDescriptor(process, 'platform')!

afterEach(() => {
  Object.defineProperty(process, 'platform', platform)
})

describe('anvilBinaryPath', () => {
  it('names the missing platform package and the two ways to run without it', () => {
    Object.defineProperty(process, 'platform', { value: 'linux' })
    expect(() => anvilBinaryPath()).toThrow(
      /no anvil binary for this platform \(linux-.+\): .*@foundry-rs\/anvil-linux-/,
    )
    expect(() => anvilBinaryPath()).toThrow(/--no-chain.*--rpc-url/)
  })

  it('says when @foundry-rs/anvil ships no binary for the platform at all', () => {
    Object.defineProperty(process, 'platform', { value: 'aix' })
    expect(() => anvilBinaryPath()).toThrow(
      /no anvil binary for this platform \(aix-.+: @foundry-rs\/anvil ships none\)/,
    )
    expect(() => anvilBinaryPath()).toThrow(/--no-chain.*--rpc-url/)
  })
})
