// jest for the ESM example: no transform (plain .mjs), node environment, `request-sandbox/msw` from the compiled
// build the wrapping vitest test makes (dist-test/).
export default {
  rootDir: '../../..',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/examples/jest/*.test.mjs'],
  transform: {},
  moduleNameMapper: { '^request-sandbox/msw$': '<rootDir>/dist-test/msw.js' },
  testTimeout: 30_000,
}
