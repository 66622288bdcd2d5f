// `npm test`: typecheck, lint and every package's tests, ending with one plain
// `tests: N passed, N failed` line summed over every suite (CI reads that line, not Jest's).
// Each package's Jest run creates (and drops) a migrated database and a queue namespace of its own
// (packages/db/src/testing/jest-global-setup.ts), and the end-to-end run starts a stack of its own,
// so packages share no rows or queues and turbo runs them side by side: most of a suite's time is
// spent waiting on Postgres, Redis, child processes and the browser, not on the CPU.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseCpuPressure, startCpuPressure } from './cpu-pressure';
import { ensureLocalServices } from './local-services';
import { repoRoot } from './paths';
import { countJestReport, countPlaywrightReport, type TestCounts } from './test-report';

const resultsDir = path.join(repoRoot, '.test-results');

/**
 * Tasks in flight at once. Three keeps both cores busy while the suites wait on I/O; the longest
 * ones (the worker's and the end-to-end run) then overlap instead of adding up.
 */
const TURBO_CONCURRENCY = 3;

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
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    TEST_ADMIN_DATABASE_URL: adminDatabaseUrl,
    VALKEY_URL: valkeyUrl,
    TURBO_TELEMETRY_DISABLED: '1',
  };
  // Never the caller's (a developer shell may point at the dev stack): each Jest run makes its own.
  delete env.DATABASE_URL;
  delete env.QUEUE_SUFFIX;
  rmSync(resultsDir, { recursive: true, force: true });
  const turbo = path.join(repoRoot, 'node_modules', '.bin', 'turbo');
  let broken = false;
  if (busyLoops > 0) console.log(`Running beside ${busyLoops} busy-loop processes (--cpu-pressure).`);
  const stopCpuPressure = startCpuPressure(busyLoops);
  try {
    // One graph, so a package's tests start while others still typecheck; turbo.json sets which
    // task prints what, and turbo's closing summary names any failed task.
    const tasks = ['typecheck', 'lint', 'test'];
    if (run(turbo, ['run', ...tasks, `--concurrency=${TURBO_CONCURRENCY}`, '--continue'], env) !== 0) broken = true;
  } finally {
    stopCpuPressure();
  }

  const counts = collectCounts();
  // A package whose runner crashed before writing a report, or a failed typecheck or lint, must still
  // fail the run even though no individual test was counted as failed.
  if (broken && counts.failed === 0) counts.failed = 1;
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
