// `pnpm --filter @staging/web test`: builds the web app (a failing `next build` fails the run),
// starts the e2e stack and runs Playwright against it. Playwright writes its JSON report to
// <repo>/.test-results/playwright.json, which the root test command sums with the Jest reports.
//   --skip-build   reuse the existing apps/web/.next (local iteration)
//   other args     passed to `playwright test` (e.g. a file name or --grep)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generateE2eSecrets } from './e2e-secrets';
import { startE2eStack } from './e2e-stack';
import { repoRoot } from './paths';

const CHROMIUM = '/usr/bin/chromium';
const webDir = path.join(repoRoot, 'apps/web');
const resultsDir = path.join(repoRoot, '.test-results');
const reportFile = path.join(resultsDir, 'playwright.json');

/** Debian's Chromium is what the tests drive; install it when missing (never `playwright install`). */
function ensureChromium(): void {
  if (existsSync(CHROMIUM)) return;
  console.log('[e2e] /usr/bin/chromium is missing; installing Debian chromium');
  const asRoot = process.getuid?.() === 0;
  for (const args of [['update'], ['install', '-y', 'chromium']]) {
    const command: [string, ...string[]] = asRoot ? ['apt-get', ...args] : ['sudo', '-n', 'apt-get', ...args];
    const [program, ...programArgs] = command;
    const result = spawnSync(program, programArgs, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (result.status !== 0) throw new Error(`${command.join(' ')} failed`);
  }
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} still missing after apt-get install chromium`);
}

/** A report with one failed test, so a broken build or stack shows up in the summed count. */
function writeFailureReport(title: string, message: string): void {
  mkdirSync(resultsDir, { recursive: true });
  const report = {
    suites: [{ title: 'e2e setup', specs: [{ title, ok: false, tests: [{ status: 'unexpected', results: [{ status: 'failed', error: { message } }] }] }] }],
    // Counted once: as one unexpected test (errors stays empty so it is not counted twice).
    stats: { expected: 0, unexpected: 1, flaky: 0, skipped: 0 },
    errors: [],
  };
  writeFileSync(reportFile, JSON.stringify(report, null, 2));
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const skipBuild = args.includes('--skip-build');
  const playwrightArgs = args.filter((arg) => arg !== '--skip-build');
  const started = Date.now();
  ensureChromium();
  const secrets = generateE2eSecrets();
  const nextBin = path.join(webDir, 'node_modules/.bin/next');

  if (!skipBuild || !existsSync(path.join(webDir, '.next/BUILD_ID'))) {
    console.log('[e2e] next build');
    // Every secret of the run is in the build's environment on purpose: if any page inlined a
    // server variable, the secret scan in e2e/secrets.spec.ts would find it in .next.
    const build = spawnSync(nextBin, ['build'], {
      cwd: webDir,
      stdio: 'inherit',
      env: { ...process.env, ...secrets, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' },
    });
    if (build.status !== 0) {
      writeFailureReport('next build', `next build exited with ${build.status}`);
      return 1;
    }
  }

  const logDir = path.join(repoRoot, 'test-results', 'e2e-logs');
  console.log(`[e2e] starting the stack (logs in ${path.relative(repoRoot, logDir)})`);
  let stack;
  try {
    stack = await startE2eStack({ secrets, logDir });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`[e2e] the stack did not start: ${message}`);
    writeFailureReport('e2e stack', message);
    return 1;
  }
  console.log(`[e2e] stack up in ${((Date.now() - started) / 1000).toFixed(1)}s; web ${stack.info.webUrl}`);

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    E2E_STACK: JSON.stringify(stack.info),
    E2E_SECRETS: JSON.stringify(secrets),
    PLAYWRIGHT_JSON_OUTPUT_FILE: reportFile,
  };
  let status: number;
  try {
    const playwright = path.join(webDir, 'node_modules/.bin/playwright');
    // Asynchronous on purpose: s3rver and the provider simulator live in this process, and a
    // blocking spawnSync would stop them from answering while the tests run.
    const child = spawn(playwright, ['test', ...playwrightArgs], { cwd: webDir, stdio: 'inherit', env });
    status = await new Promise<number>((resolve) => {
      child.once('error', () => resolve(1));
      child.once('exit', (code) => resolve(code ?? 1));
    });
  } finally {
    await stack.stop();
  }
  console.log(`[e2e] done in ${((Date.now() - started) / 1000).toFixed(1)}s`);
  return status;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    writeFailureReport('e2e runner', error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
