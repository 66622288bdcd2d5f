// `npm test`: the whole suite against a database and queue namespace of its own, ending with one
// plain `tests: N passed, N failed` line summed over every suite (CI reads that line, not Jest's).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { migrate } from '@staging/db/migrate';
import { parseCpuPressure, startCpuPressure } from './cpu-pressure';
import { dropDatabase, ensureDatabase, ensureLocalServices } from './local-services';
import { repoRoot } from './paths';
import { countJestReport, countPlaywrightReport, type TestCounts } from './test-report';

const resultsDir = path.join(repoRoot, '.test-results');

function run(file: string, args: string[], env: NodeJS.ProcessEnv): number {
  const result = spawnSync(file, args, { cwd: repoRoot, stdio: 'inherit', env });
  return result.status ?? 1;
}

function collectCounts(): TestCounts {
  const totals: TestCounts = { passed: 0, failed: 0 };
  if (!existsSync(resultsDir)) return totals;
  for (const file of readdirSync(resultsDir).filter((name) => name.endsWith('.json'))) {
    const report: unknown = JSON.parse(readFileSync(path.join(resultsDir, file), 'utf8'));
    const counts = file.startsWith('playwright') ? countPlaywrightReport(report) : countJestReport(report);
    totals.passed += counts.passed;
    totals.failed += counts.failed;
  }
  return totals;
}

async function main(): Promise<number> {
  const busyLoops = parseCpuPressure(process.argv.slice(2));
  const { adminDatabaseUrl, valkeyUrl } = await ensureLocalServices(process.env);
  const runId = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const databaseName = `staging_test_${runId}`;
  const databaseUrl = await ensureDatabase(adminDatabaseUrl, databaseName);
  await migrate({ databaseUrl, log: (line) => console.log(line) });

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    TEST_ADMIN_DATABASE_URL: adminDatabaseUrl,
    VALKEY_URL: valkeyUrl,
    QUEUE_SUFFIX: `-test-${runId}`,
    TURBO_TELEMETRY_DISABLED: '1',
  };
  rmSync(resultsDir, { recursive: true, force: true });
  const turbo = path.join(repoRoot, 'node_modules', '.bin', 'turbo');
  let broken = 0;
  if (busyLoops > 0) console.log(`Running beside ${busyLoops} busy-loop processes (--cpu-pressure).`);
  const stopCpuPressure = startCpuPressure(busyLoops);
  try {
    if (run(turbo, ['run', 'typecheck', '--output-logs=errors-only'], env) !== 0) {
      console.error('Typecheck failed.');
      broken += 1;
    }
    if (run(turbo, ['run', 'lint', '--output-logs=errors-only'], env) !== 0) {
      console.error('Lint failed.');
      broken += 1;
    }
    if (run(turbo, ['run', 'test', '--concurrency=1', '--continue', '--output-logs=full'], env) !== 0) {
      broken += 1;
    }
  } finally {
    stopCpuPressure();
    await dropDatabase(adminDatabaseUrl, databaseName);
  }

  const counts = collectCounts();
  // A package whose runner crashed before writing a report, or a failed typecheck or lint, must still
  // fail the run even though no individual test was counted as failed.
  if (broken > 0 && counts.failed === 0) counts.failed = broken;
  console.log(`tests: ${counts.passed} passed, ${counts.failed} failed`);
  return counts.failed > 0 || counts.passed === 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    console.log('tests: 0 passed, 1 failed');
    process.exit(1);
  },
);
