import { defineConfig } from 'vitest/config'

export default defineConfig({
  // `request-sandbox/*` self-imports resolve to the TypeScript sources in this repository's own tests
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
})
