// One lint setup for the whole repo. packages/domain must stay free of I/O: the restricted-imports
// rule below is what enforces it.
import js from '@eslint/js';
import i18next from 'eslint-plugin-i18next';
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
    // Every text the dashboard shows or announces comes from the message catalogues (en, es): a
    // literal in JSX, or in a prop a person reads or hears (aria-label, title, placeholder, alt,
    // label…), fails the lint. Props that are code (class names, test ids, enums) are allowed.
    // The cached public pages allow inline scripts of their own origin, not just nonced ones
    // (docs/decisions/public-pages.md "Public pages a CDN can keep"): text must reach the page
    // through React's escaping, never as raw markup.
    files: ['apps/web/src/**/*.tsx'],
    // With types, a literal whose type is a string literal or a union of them (a field name, a
    // tone, an Intl option) is code, not text, and passes.
    languageOptions: { parserOptions: { projectService: true } },
    plugins: { i18next },
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']", message: 'Render text through React; raw HTML would run under the public pages\' CSP.' },
      ],
      'i18next/no-literal-string': [
        'error',
        {
          mode: 'jsx-only',
          // The catalogue translators: t, tc, tl… and their rich-text forms.
          callees: { exclude: ['t[a-z]?', 't[a-z]?\\.(rich|markup|raw|has)', 'require'] },
          // Text without a letter (digits, punctuation, arrows) and all-capital codes say nothing to translate.
          words: { exclude: [/^[\p{P}\p{S}\p{N}\s]+$/u, /^[A-Z_-]+$/] },
          'object-properties': { exclude: ['[A-Z_-]+', 'href'] },
          'jsx-attributes': {
            exclude: ['className', 'style', 'type', 'key', 'id', 'width', 'height', 'step', 'testId', 'value', 'href', 'data-.*'],
          },
        },
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
