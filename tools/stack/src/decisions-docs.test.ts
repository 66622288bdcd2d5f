// The decisions are filed by area in docs/decisions/, and code and docs point into them as
// `docs/decisions/<file>.md "<title>"`. A pointer to an entry that was renamed or merged away
// leaves a reader with nothing; a pointer to a work item (an issue number) names something the
// repository does not contain. Both are caught here, and so is the single time-ordered file
// coming back.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './paths';

const decisionsDir = path.join(repoRoot, 'docs/decisions');
/** Build output, dependencies and reports: nothing there is written by hand. */
const SKIPPED_DIRS = new Set(['node_modules', '.git', '.next', '.turbo', 'dist', 'coverage', 'test-results', '.test-results']);
const TEXT_FILE = /\.(ts|tsx|js|mjs|cjs|md|sql|ya?ml|sh)$|^Dockerfile/;
/** Applied migrations cannot change (their checksums are recorded), so they keep citing the old single file. */
const FROZEN = /^packages\/db\/prisma\/migrations\//;

function textFiles(dir = repoRoot): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : textFiles(full);
    return TEXT_FILE.test(entry.name) ? [path.relative(repoRoot, full)] : [];
  });
}

function headingsOf(file: string): string[] {
  return [...readFileSync(path.join(decisionsDir, file), 'utf8').matchAll(/^### (.+)$/gm)].map((m) => m[1]!.trim());
}

const areaFiles = readdirSync(decisionsDir).filter((name) => name.endsWith('.md') && name !== 'README.md');
const headings = new Map(areaFiles.map((file) => [file, headingsOf(file)]));
const files = textFiles().map((file) => ({ file, text: readFileSync(path.join(repoRoot, file), 'utf8') }));

/** `"…"` right after a citation of `docs/decisions…md`, across a comment's line breaks. */
function citedTitles(text: string, cited: RegExp): { target: string; title: string }[] {
  return [...text.matchAll(cited)].map((m) => ({
    target: m[1] ?? '',
    title: m[2]!.replace(/\s*\n\s*(?:\*|\/\/|#|--)?\s*/g, ' ').trim(),
  }));
}

describe('docs/decisions', () => {
  it('is filed by area, not one file in time order', () => {
    expect(existsSync(path.join(repoRoot, 'docs', 'decisions.md'))).toBe(false);
    expect(existsSync(path.join(decisionsDir, 'README.md'))).toBe(true);
    expect(areaFiles.length).toBeGreaterThan(1);
  });

  it('is cited by area file everywhere but in applied migrations', () => {
    // The README explains how the migrations' old citations resolve, so it names the old file.
    const citing = files.filter(
      ({ file, text }) => !FROZEN.test(file) && file !== 'docs/decisions/README.md' && /docs\/decisions\.md/.test(text),
    );
    expect(citing.map(({ file }) => file)).toEqual([]);
  });

  it('has an entry for every title code and docs cite', () => {
    const missing = files.flatMap(({ file, text }) =>
      citedTitles(text, /docs\/decisions\/([\w-]+\.md),?\s*\(?\s*"([^"]+)"/g)
        .filter(({ target, title }) => !(headings.get(target) ?? []).some((heading) => heading.startsWith(title)))
        .map(({ target, title }) => `${file}: ${target} "${title}"`),
    );
    expect(missing).toEqual([]);
  });

  it('still has the entries applied migrations cite by title', () => {
    const all = [...headings.values()].flat().map((heading) => heading.toLowerCase());
    const missing = files
      .filter(({ file }) => FROZEN.test(file))
      .flatMap(({ file, text }) =>
        citedTitles(text, /docs\/decisions()\.md,?\s*"([^"]+)"/g)
          .filter(({ title }) => !all.some((heading) => heading.includes(title.toLowerCase())))
          .map(({ title }) => `${file}: "${title}"`),
      );
    expect(missing).toEqual([]);
  });
});

describe('code and docs', () => {
  it('cite no work items the repository does not contain', () => {
    const citing = files.flatMap(({ file, text }) =>
      [...text.matchAll(/\b(?:issue|work item)\s+#?\d+\b/gi)].map((m) => `${file}: ${m[0]}`),
    );
    expect(citing).toEqual([]);
  });
});
