// One lint setup for the whole repo. packages/domain must stay free of I/O: the restricted-imports
// rule below is what enforces it.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// A workspace package is reached by its name and exports, never by a relative path into another
// package's folder: such a path skips the dependency declaration (the import works only while
// the folders happen to sit side by side) and couples to a private file layout.
const crossPackagePaths = [
  { regex: '^(\\.\\./)+(apps|packages|tools|tooling)/', message: 'Import another workspace package by its name (@staging/...), not by a relative path.' },
  { regex: '^(\\.\\./)+[^./][^/]*/src(/|$)', message: "Import another workspace package by its name (@staging/...), not through its src folder." },
];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/.next/**', '**/generated/**', '**/coverage/**', '**/next-env.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', { patterns: crossPackagePaths }],
    },
  },
  {
    // Configuration is read and validated in one place; an entry point may hand process.env to
    // @staging/config, and says so where it does.
    files: ['apps/**/*.{ts,tsx}', 'packages/**/*.ts'],
    ignores: [
      'packages/config/**',
      '**/*.test.ts',
      '**/test/**',
      '**/testing/**',
      '**/testing.ts',
      '**/e2e/**',
      'apps/web/playwright.config.ts',
      // Next.js reads these at build time or in the edge runtime (NEXT_RUNTIME, NEXT_PUBLIC_*).
      'apps/web/sentry.*.config.ts',
      'apps/web/src/instrumentation*.ts',
    ],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through @staging/config.' },
      ],
    },
  },
  {
    // The cached public pages allow inline scripts of their own origin, not just nonced ones
    // (docs/decisions.md "Public pages a CDN can keep"): text must reach the page through React's
    // escaping, never as raw markup.
    files: ['apps/web/src/**/*.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']", message: 'Render text through React; raw HTML would run under the public pages\' CSP.' },
      ],
    },
  },
  {
    files: ['packages/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...crossPackagePaths,
            { group: ['@staging/db*', '@staging/platform*', '@staging/services*', '@prisma/*', 'bullmq', 'ioredis', 'pino', 'pg', 'sharp', '@aws-sdk/*', 'node:fs*', 'node:net', 'node:http*'], message: 'packages/domain holds pure rules: no I/O imports.' },
          ],
        },
      ],
      'no-restricted-globals': ['error', { name: 'process', message: 'Read configuration in packages/config.' }],
    },
  },
);
