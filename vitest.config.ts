import { defineConfig } from 'vitest/config'

// Test files that replace a module (vi.mock) get a module registry of their own; every other file shares its
// worker's: the sources are imported once per worker instead of once per file (most of the suite's time was spent
// importing them again).
const ownRegistry = ['src/chain/anvil.test.ts', 'src/control/fixtures/yaml-thread.test.ts']

// Long runs kept out of `npm test` (the suite's 4-minute budget) and run by `npm run test:long`: the package packed and
// installed into an app offline, the release script's dry run, the Dockerfile's build stage built from its inputs alone, a process exiting mid-checkpoint, kill -9 during
// restores, script payloads in every field of every page with every button clicked in Chromium. Each has a faster twin
// in the suite where one exists (the restore's commit order: snapshot-restore-atomic; escaping: the pages' own tests).
const long = [
  'test/package/pack.test.ts',
  'test/package/release.test.ts',
  'test/package/docker-build-stage.test.ts',
  'test/persistence/state-writer-exit.test.ts',
  'test/snapshots/snapshot-restore-kill.test.ts',
  'test/browser/injection.test.ts',
]

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
    // the MCP SDK's client reads eventsource-parser, which ships its TypeScript under the `source` condition: both
    // transformed by vitest like the project's own sources, not handed to Node as .ts
    server: { deps: { inline: ['@modelcontextprotocol/sdk', 'eventsource', 'eventsource-parser'] } },
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...ownRegistry, ...long],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'isolated', include: ownRegistry } },
      { extends: true, test: { name: 'long', include: long, isolate: false } },
    ],
  },
})
