// ARCHITECTURE.md is where a newcomer learns where things live; a folder it does not name is one
// they will not find, so every package and top-level entry of apps/, packages/ and tools/, and
// every area folder of services, must appear in it.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './paths';

const architecture = readFileSync(path.join(repoRoot, 'ARCHITECTURE.md'), 'utf8');

function entries(folder: string): string[] {
  return readdirSync(path.join(repoRoot, folder), { withFileTypes: true })
    .filter((entry) => entry.name !== 'node_modules' && !entry.name.startsWith('.'))
    .map((entry) => `${folder}/${entry.name}`);
}

describe('ARCHITECTURE.md', () => {
  it.each(['apps', 'packages', 'tools'])('names every entry of %s/', (folder) => {
    expect(entries(folder).filter((entry) => !architecture.includes(entry))).toEqual([]);
  });

  it('names every area folder of the services package in its row', () => {
    const row = architecture.split('\n').find((line) => line.startsWith('| `@staging/services`')) ?? '';
    const areas = readdirSync(path.join(repoRoot, 'packages/services/src'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== 'testing')
      .map((entry) => `\`${entry.name}/\``);
    expect(areas.filter((area) => !row.includes(area))).toEqual([]);
  });
});
