import { createJestConfig } from '@staging/jest-preset/jest.base';

// Route handlers are tested as plain functions: Jest needs the app's `@/` alias, and Next.js's
// `server-only` marker (which Next resolves itself, so it is no installed package) as a no-op.
export default createJestConfig(import.meta.dirname, {
  moduleNameMapper: {
    '^@/(.*)$': '<rootDir>/src/$1',
    '^server-only$': '<rootDir>/jest.server-only.ts',
  },
});
