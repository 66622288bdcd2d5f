// Runs Jest for the current package and writes its JSON report to <repo>/.test-results so the
// root test command can print one summed `tests: N passed, N failed` line.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');
const pkgDir = process.cwd();
const pkgName = JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).name;
const resultsDir = path.join(repoRoot, '.test-results');
mkdirSync(resultsDir, { recursive: true });

const configPath = existsSync(path.join(pkgDir, 'jest.config.mjs'))
  ? path.join(pkgDir, 'jest.config.mjs')
  : path.join(here, 'default.config.mjs');
const jestBin = createRequire(import.meta.url).resolve('jest/bin/jest');
const outputFile = path.join(resultsDir, `${pkgName.replace(/[@/]/g, '_')}.json`);

const result = spawnSync(
  process.execPath,
  // --forceExit: a leaked reconnecting client must never hang CI after the results are written.
  [jestBin, '--config', configPath, '--rootDir', pkgDir, '--passWithNoTests', '--forceExit', '--json',
    `--outputFile=${outputFile}`, ...process.argv.slice(2)],
  {
    stdio: 'inherit',
    env: {
      ...process.env,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules --no-warnings`.trim(),
    },
  },
);
process.exit(result.status ?? 1);
