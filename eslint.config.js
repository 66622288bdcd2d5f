// One lint setup for the whole repo. packages/domain must stay free of I/O: the restricted-imports
// rule below is what enforces it.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/.next/**', '**/generated/**', '**/coverage/**', '**/next-env.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['packages/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@staging/db*', '@staging/platform*', '@staging/services*', '@prisma/*', 'bullmq', 'ioredis', 'pino', 'pg', 'sharp', '@aws-sdk/*', 'node:fs*', 'node:net', 'node:http*'], message: 'packages/domain holds pure rules: no I/O imports.' },
          ],
        },
      ],
      'no-restricted-globals': ['error', { name: 'process', message: 'Read configuration in packages/config.' }],
    },
  },
);
