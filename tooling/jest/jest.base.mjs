// Shared Jest setup: native ESM (run under --experimental-vm-modules) with SWC stripping types,
// so tests import the same TypeScript sources the apps run.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// By absolute path so every package gets them without depending on @staging/db; Jest transforms
// them with the SWC transform below (as CommonJS, which @swc/jest picks for global setup files).
const dbTesting = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../packages/db/src/testing');

export function createJestConfig(rootDir, overrides = {}) {
  return {
    // One migrated database, VALKEY_URL and a unique QUEUE_SUFFIX per Jest run, unless the root
    // test runner already set DATABASE_URL.
    globalSetup: path.join(dbTesting, 'jest-global-setup.ts'),
    globalTeardown: path.join(dbTesting, 'jest-global-teardown.ts'),
    rootDir,
    testEnvironment: 'node',
    // Jest 30's default 'soft' globals cleanup recurses forever when a late callback (a child
    // process exit, a socket close) writes a global after teardown (jestjs/jest#16044).
    testEnvironmentOptions: { globalsCleanup: 'off' },
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
    // A hang guard, not a speed limit: tests wait for events, and a busy machine makes them later
    // (a worker test that takes 10 s alone took over 120 s in the full suite on two busy cores).
    testTimeout: 300_000,
    ...overrides,
  };
}
