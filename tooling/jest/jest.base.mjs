// Shared Jest setup: native ESM (run under --experimental-vm-modules) with SWC stripping types,
// so tests import the same TypeScript sources the apps run.
export function createJestConfig(rootDir, overrides = {}) {
  return {
    rootDir,
    testEnvironment: 'node',
    extensionsToTreatAsEsm: ['.ts', '.tsx'],
    moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'json'],
    testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
    testPathIgnorePatterns: ['/node_modules/', '/dist/', '/e2e/'],
    transform: {
      '^.+\\.tsx?$': [
        '@swc/jest',
        {
          jsc: {
            parser: { syntax: 'typescript', tsx: true },
            target: 'es2022',
            transform: { react: { runtime: 'automatic' } },
          },
          module: { type: 'es6' },
        },
      ],
    },
    testTimeout: 30_000,
    ...overrides,
  };
}
