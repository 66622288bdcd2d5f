// `npm test`: typecheck, lint and every package's tests, ending with one plain
// `tests: N passed, N failed` line summed over every suite (CI reads that line, not Jest's).
// Each package's Jest run creates (and drops) a migrated database and a queue namespace of its own
// (packages/db/src/testing/jest-global-setup.ts), and the end-to-end run starts a stack of its own,
// so packages share no rows or queues and run side by side: most of a suite's time is spent
// waiting on Postgres, Redis, child processes and the browser, not on the CPU.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseCpuPressure, startCpuPressure } from './cpu-pressure';
import { ensureLocalServices } from './local-services';
import { repoRoot } from './paths';
import { countJestReport, countPlaywrightReport, type TestCounts } from './test-report';

const resultsDir = path.join(repoRoot, '.test-results');

/**
 * The two suites that take longest (the worker's crash matrix and chaos-style tests; next build plus
 * Playwright). Turbo has no task priorities, so they get a lane of their own that starts them at
 * once; left in one graph with the rest, they often started last and set the wall time alone.
 */
const LONGEST_TEST_PACKAGES = ['@staging/worker', '@staging/web'];
/** Tasks in flight in each of the two lanes: four in all keeps two cores busy while suites wait. */
const LANE_CONCURRENCY = 2;

const turbo = path.join(repoRoot, 'node_modules', '.bin', 'turbo');

/**
 * One `turbo run`, streaming its prefixed output; resolves to true when every task passed.
 * `--only`: not the tasks' dependencies, i.e. not `db:generate`, which tools/bootstrap.mjs has
 * already run. Two lanes both running it wrote the same Prisma client directory at once (ENOTEMPTY,
 * then a half-generated client that failed every typecheck).
 */
function turboRun(args: string[], env: NodeJS.ProcessEnv): Promise<boolean> {
  const child = spawn(turbo, ['run', ...args, '--only', `--concurrency=${LANE_CONCURRENCY}`, '--continue'], { cwd: repoRoot, stdio: 'inherit', env });
  return new Promise((resolve) => {
    child.once('error', () => resolve(false));
    child.once('close', (code) => resolve(code === 0));
  });
}

/** Every typecheck, lint and test task, in two lanes; true when all passed. */
async function runAllTasks(env: NodeJS.ProcessEnv): Promise<boolean> {
  const longest = LONGEST_TEST_PACKAGES.map((name) => `--filter=${name}`);
  const others = LONGEST_TEST_PACKAGES.map((name) => `--filter=!${name}`);
  const lanes = await Promise.all([
    turboRun(['test', ...longest], env).then(async (passed) => (await turboRun(['typecheck', 'lint', ...longest], env)) && passed),
    turboRun(['typecheck', 'lint', 'test', ...others], env),
  ]);
  return lanes.every(Boolean);
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
  if (busyLoops > 0) console.log(`Running beside ${busyLoops} busy-loop processes (--cpu-pressure).`);
  const stopCpuPressure = startCpuPressure(busyLoops);
  let broken: boolean;
  try {
    // turbo.json sets which task prints what; each turbo's closing summary names its failed tasks.
    broken = !(await runAllTasks(env));
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
