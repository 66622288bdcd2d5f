// One lint setup for the whole repo. Which workspace package may import which is the table
// below (ARCHITECTURE.md "Imports between packages" shows the same rows, and a test in tools/stack
// keeps it equal); packages/domain must also stay free of I/O.
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

/** Test code: files a package runs only under Jest or Playwright, never in production. */
const testFiles = ['**/*.test.ts', '**/*.test.tsx', '**/*.spec.ts', '**/test/**', '**/testing/**', '**/testing.ts', '**/e2e/**', '**/test-helpers.ts', '**/jest.config.mjs'];

const PACKAGES = ['config', 'contracts', 'db', 'domain', 'http-edge', 'ops', 'platform', 'provider', 'services', 'trpc'];
const TOOLS = ['bench', 'chaos', 'provider-simulator', 'stack'];

/** packages/domain holds pure rules: no I/O module either. */
const ioModules = {
  group: ['@prisma/*', 'bullmq', 'ioredis', 'pino', 'pg', 'sharp', '@aws-sdk/*', 'node:fs*', 'node:net', 'node:http*'],
  message: 'packages/domain holds pure rules: no I/O imports.',
};

/**
 * The workspace packages (`@staging/<name>`) each folder's code may import: apps -> packages,
 * domain depends on nothing of ours, nothing imports an app. `exceptions` are imports the code
 * makes today against that direction, allowed until they are moved; `testsMay` is what its test
 * code may import besides (the tools that start real components for a test); `alsoRefused` are
 * further import patterns the folder refuses.
 */
const importTable = {
  'packages/config': { may: ['domain'] },
  'packages/contracts': { may: ['domain'] },
  'packages/domain': { may: [], alsoRefused: [ioModules] },
  'packages/db': { may: [], testsMay: ['domain'] },
  'packages/platform': { may: ['config'], testsMay: ['stack'] },
  'packages/provider': { may: ['domain'] },
  'packages/services': { may: ['config', 'contracts', 'db', 'domain', 'platform', 'provider'], testsMay: ['stack'] },
  'packages/http-edge': { may: ['domain', 'platform'] },
  'packages/trpc': { may: ['contracts', 'domain', 'http-edge', 'services'], exceptions: ['config', 'db', 'platform'] },
  'packages/ops': { may: ['config', 'db', 'domain', 'platform', 'provider', 'services'], testsMay: ['provider-simulator', 'stack'] },
  'apps/api': { may: PACKAGES, testsMay: ['stack'] },
  'apps/web': { may: PACKAGES, testsMay: ['jest-preset', 'stack'] },
  'apps/worker': { may: PACKAGES, testsMay: ['jest-preset', 'provider-simulator', 'stack'] },
  'tools/provider-simulator': { may: [], testsMay: ['provider'] },
  'tools/stack': { may: [...PACKAGES, ...TOOLS.filter((name) => name !== 'stack')] },
  'tools/chaos': { may: [...PACKAGES, ...TOOLS.filter((name) => name !== 'chaos')] },
  'tools/bench': { may: [...PACKAGES, ...TOOLS.filter((name) => name !== 'bench')] },
};

/** Any `@staging/...` import other than the allowed names (and their subpaths). */
function onlyPackages(folder, allowed) {
  const names = [...new Set(allowed)].sort();
  const shown = names.length === 0 ? 'no workspace package' : names.map((name) => `@staging/${name}`).join(', ');
  return {
    regex: names.length === 0 ? '^@staging/' : `^@staging/(?!(?:${names.join('|')})(?:/|$))`,
    message: `${folder} may import ${shown} (ARCHITECTURE.md "Imports between packages").`,
  };
}

function importRule(folder, allowed, alsoRefused) {
  return { 'no-restricted-imports': ['error', { patterns: [...crossPackagePaths, onlyPackages(folder, allowed), ...alsoRefused] }] };
}

/** One block per folder of the table, and one more for its test code where that may import more. */
const importTableBlocks = Object.entries(importTable).flatMap(([folder, { may, exceptions = [], testsMay = [], alsoRefused = [] }]) => [
  { files: [`${folder}/**/*.{ts,tsx,mts,cts,js,mjs,cjs}`], rules: importRule(folder, [...may, ...exceptions], alsoRefused) },
  ...(testsMay.length === 0
    ? []
    : [{ files: testFiles.map((glob) => `${folder}/${glob}`), rules: importRule(`${folder} tests`, [...may, ...exceptions, ...testsMay], alsoRefused) }]),
]);

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
      ...testFiles,
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
    // Production code is linted with types. A `!` claims a value is present without the compiler
    // checking it, so an absent one fails far from its cause; narrowing says where it is checked.
    // A promise nobody awaits or catches loses its rejection; `void` marks the fire-and-forget
    // ones on purpose. Tests keep `!`: a test reads what it has just asserted is there, and a
    // missing value fails the test either way. They are linted without types, which spares the
    // type queries on every test file.
    files: ['apps/**/*.{ts,tsx}', 'packages/**/*.{ts,tsx}', 'tools/**/*.{ts,tsx}'],
    ignores: testFiles,
    languageOptions: { parserOptions: { projectService: true } },
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  ...importTableBlocks,
  {
    files: ['packages/domain/**/*.ts'],
    rules: {
      'no-restricted-globals': ['error', { name: 'process', message: 'Read configuration in packages/config.' }],
    },
  },
);
