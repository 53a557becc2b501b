import { defineConfig } from 'vitest/config'

// Test files that replace a module (vi.mock) get a module registry of their own; every other file shares its
// worker's: the sources are imported once per worker instead of once per file (most of the suite's time was spent
// importing them again).
const ownRegistry = ['src/chain/anvil.test.ts', 'src/control/fixtures/yaml-thread.test.ts']

export default defineConfig({
  // `request-sandbox/*` self-imports resolve to the TypeScript sources in this repository's own tests
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // two forks on the project's 2-core machines (vitest's default leaves one core idle): most files wait on anvil,
    // Chromium or a child process, so two halve the suite's time (docs/decisions/2026-12-06-two-test-workers.md)
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: ownRegistry,
          isolate: false,
        },
      },
      { extends: true, test: { name: 'isolated', include: ownRegistry } },
    ],
  },
})
