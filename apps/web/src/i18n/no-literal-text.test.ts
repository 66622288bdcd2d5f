import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
// A real component of the app: the lint's type information comes from the app's own tsconfig,
// which only knows files on disk. Its text is replaced by each sample below.
const componentPath = path.join(repoRoot, 'apps/web/src/components/skip-link.tsx');

/**
 * What the repository's lint says about `code` as a component of the dashboard: rule and the
 * source it points at, by line. The ESLint CLI in its own process, as `pnpm lint` runs it (the
 * plugin loads its rules with `require` machinery Jest's module system does not offer).
 */
async function lintMessages(code: string): Promise<{ line: number; text: string }[]> {
  const eslint = path.join(repoRoot, 'node_modules/eslint/bin/eslint.js');
  const run = promisify(execFile)(process.execPath, [eslint, '--format', 'json', '--stdin', '--stdin-filename', componentPath], {
    cwd: repoRoot,
    maxBuffer: 16 * 1024 * 1024,
  });
  run.child.stdin?.end(code);
  // Exit code 1 means "problems found": the report is on stdout either way.
  const { stdout } = await run.catch((error: { stdout?: string; code?: number }) => {
    if (error.code === 1 && error.stdout !== undefined) return { stdout: error.stdout };
    throw error;
  });
  const [result] = JSON.parse(stdout) as { messages: { ruleId: string | null; line: number; message: string }[] }[];
  return (result?.messages ?? []).map(({ ruleId, line, message }) => ({ line, text: `${ruleId ?? 'parse'}: ${message.replace(/^disallow literal string: /, '')}` }));
}

// Two components in one file, so the type-aware lint starts once: text that must be refused, and
// catalogue text and code-like strings that must pass.
const SAMPLE = `'use client';
import { useLocale, useTranslations } from 'next-intl';
import { AlertMessage } from '@/components/alert-message';

export function Refused({ failed }: { failed: boolean }) {
  return (
    <div>
      <p>Upload failed</p>
      <button type="button" aria-label="Close the dialog">×</button>
      <input placeholder="Search listings" />
      <img src="/a.png" alt="Living room" />
      <abbr title="Square metres">{failed}</abbr>
      <AlertMessage message="Something went wrong" />
      <p>{failed ? 'Try again' : null}</p>
    </div>
  );
}
// ---- everything below passes ----
type FieldName = 'unitNumber' | 'floor';
function Field({ name }: { name: FieldName }) {
  return <span>{name}</span>;
}
export function Allowed({ count }: { count: number }) {
  const t = useTranslations('upload');
  const tc = useTranslations('common');
  const locale = useLocale();
  return (
    <div className="card" data-testid="sample" id="sample">
      <p>{t('title')}</p>
      <button type="button" aria-label={tc('cancel')}>{t.rich('files', {})}</button>
      <AlertMessage message={t('failed')} tone="page" />
      <Field name="floor" />
      <time dateTime="2026-01-01">{new Intl.DateTimeFormat(locale, { month: 'long' }).format(count)}</time>
      <span aria-hidden="true">‹ › · {count}</span>
    </div>
  );
}
`;
const DIVIDER_LINE = SAMPLE.split('\n').findIndex((line) => line.startsWith('// ---- everything below passes')) + 1;

describe('the lint that keeps text in the catalogues', () => {
  let messages: { line: number; text: string }[];
  beforeAll(async () => {
    messages = await lintMessages(SAMPLE);
  }, 180_000);

  it('refuses text written in JSX and in the props a person reads or hears', () => {
    expect(messages.filter((message) => message.line < DIVIDER_LINE).map((message) => message.text)).toEqual([
      'i18next/no-literal-string: <p>Upload failed</p>',
      'i18next/no-literal-string: aria-label="Close the dialog"',
      'i18next/no-literal-string: placeholder="Search listings"',
      'i18next/no-literal-string: alt="Living room"',
      'i18next/no-literal-string: title="Square metres"',
      'i18next/no-literal-string: message="Something went wrong"',
      "i18next/no-literal-string: failed ? 'Try again' : null",
    ]);
  });

  it('lets catalogue text, code-like props and typed choices through', () => {
    expect(messages.filter((message) => message.line >= DIVIDER_LINE)).toEqual([]);
  });
});
