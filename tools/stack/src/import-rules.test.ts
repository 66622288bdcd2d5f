// Which workspace package may import which is enforced by the lint (eslint.config.js) and written
// down for people in ARCHITECTURE.md "Imports between packages". This runs the real lint setup on
// an import of every workspace package from every folder, so the rule is shown to fail a wrong
// import, and the table a newcomer reads is the one the lint applies.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { repoRoot } from './paths';

// The probe files do not exist, so no TypeScript project holds them: they are linted without
// types, and the rules that need types are off for them. The import rules read no types.
const eslint = new ESLint({
  cwd: repoRoot,
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false } },
    rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/no-misused-promises': 'off' },
  },
});

async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, filePath) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

/** `@staging/<name>` of every workspace folder, by group. */
function workspaceNames(group: string): Map<string, string> {
  const folders = readdirSync(path.join(repoRoot, group))
    .map((name) => `${group}/${name}`)
    .filter((folder) => existsSync(path.join(repoRoot, folder, 'package.json')));
  return new Map(
    folders.map((folder) => {
      const { name } = JSON.parse(readFileSync(path.join(repoRoot, folder, 'package.json'), 'utf8')) as { name: string };
      return [folder, name.replace('@staging/', '')];
    }),
  );
}

const packages = [...workspaceNames('packages').values()];
const tools = [...workspaceNames('tools').values()];
const folderNames = new Map([...workspaceNames('packages'), ...workspaceNames('apps'), ...workspaceNames('tools')]);
const everyName = [...new Set([...folderNames.values(), ...workspaceNames('tooling').values()])].sort();

interface Row {
  folder: string;
  may: string[];
  exceptions: string[];
  testsAlso: string[];
}

function names(cell: string, folder: string): string[] {
  const self = folderNames.get(folder);
  if (cell === '-') return [];
  if (cell === 'every package') return packages;
  if (cell === 'every package and tool') return [...packages, ...tools].filter((name) => name !== self);
  return cell.split(',').map((name) => name.trim());
}

function documentedRows(): Row[] {
  const doc = readFileSync(path.join(repoRoot, 'ARCHITECTURE.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Imports between packages'));
  const table = section.slice(section.indexOf('| folder |'), section.indexOf('\n\n', section.indexOf('| folder |')));
  return table
    .split('\n')
    .slice(2)
    .map((line) => line.split('|').slice(1, -1).map((cell) => cell.trim()))
    .map(([folder = '', may = '', exceptions = '', testsAlso = '']) => ({
      folder,
      may: names(may, folder),
      exceptions: names(exceptions, folder),
      testsAlso: names(testsAlso, folder),
    }));
}

/** The workspace names a file at `filePath` may not import, as the lint decides. */
async function refusedFrom(filePath: string): Promise<string[]> {
  const code = everyName.map((name) => `import '@staging/${name}/any-module';`).join('\n');
  const messages = await restrictedImports(filePath, code);
  return everyName.filter((name) => messages.some((m) => m.startsWith(`'@staging/${name}/any-module'`)));
}

describe('imports between workspace packages', () => {
  it('fail the lint where the direction forbids them', async () => {
    expect(await restrictedImports('packages/domain/src/x.ts', "import { createDb } from '@staging/db/client';\nexport const db = createDb;\n")).toEqual([
      expect.stringContaining('packages/domain may import no workspace package'),
    ]);
    expect(await restrictedImports('packages/services/src/x.ts', "import type { App } from '@staging/api/app';\nexport type A = App;\n")).toEqual([
      expect.stringContaining('packages/services may import @staging/config, @staging/contracts, @staging/db'),
    ]);
    expect(await restrictedImports('tools/chaos/src/x.ts', "import '@staging/worker/main';\n")).toHaveLength(1);
    expect(await restrictedImports('packages/domain/src/x.test.ts', "import 'pg';\n")).toEqual([expect.stringContaining('no I/O imports')]);
  });

  it('pass where the direction allows them', async () => {
    const [result] = await eslint.lintText("import { createDb } from '@staging/db/client';\nexport const db = createDb;\n", {
      filePath: path.join(repoRoot, 'packages/services/src/x.ts'),
    });
    expect(result?.messages).toEqual([]);
  });

  it('has a row in ARCHITECTURE.md for every workspace folder', () => {
    expect(documentedRows().map((row) => row.folder).sort()).toEqual([...folderNames.keys()].sort());
  });

  it.each(documentedRows())('are linted from $folder as ARCHITECTURE.md says', async ({ folder, may, exceptions, testsAlso }) => {
    const allowed = new Set([...may, ...exceptions]);
    expect(await refusedFrom(`${folder}/src/x.ts`)).toEqual(everyName.filter((name) => !allowed.has(name)));
    for (const name of testsAlso) allowed.add(name);
    expect(await refusedFrom(`${folder}/src/x.test.ts`)).toEqual(everyName.filter((name) => !allowed.has(name)));
  });
});
