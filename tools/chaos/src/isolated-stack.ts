// The stack a chaos run owns alone: a fresh migrated database, its own redis-server on a free
// port, s3rver with its own directory, the provider simulator (default mode, as its CLI runs it),
// the real api and N real worker processes, all on free loopback ports under one QUEUE_SUFFIX.
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { apiTestEnv, TEST_SECRETS, workerTestEnv } from '@staging/config/test-env';
import { buildStack, uniqueQueueSuffix } from '@staging/stack/stack-builder';
import { Redis } from 'ioredis';
import { freePort } from '@staging/stack/free-port';
import { startChild, waitForHttpOk } from './child-process';
import type { RunningChild } from './child-process';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const CHAOS_BUCKET = 'staging-chaos';
const BOOT_TIMEOUT_MS = 90_000;

/**
 * Worker timings for chaos, passed through the worker's `--test-timings` hook
 * (apps/worker/src/testing/test-hooks.ts): seconds instead of minutes, so a job that lost its
 * worker, its Redis state or its webhook recovers within the run. Production paths, shorter waits.
 */
export const CHAOS_WORKER_TIMINGS = {
  pollIntervalMs: 1_000,
  disabledRecheckMs: 500,
  retryDelayMs: 200,
  createRecoveryGraceMs: 2_000,
  recoveryPollMs: 300,
  // The simulator runs with Replicate's final-webhook retries (the last about a minute after completion).
  finalWebhookWindowMs: 65_000,
  absenceConfirmGapMs: 1_000,
  predictionTimeoutMs: 20_000,
  throttleBaseMs: 300,
  transientBackoffMs: 300,
  downloadTimeoutMs: 10_000,
  downloadGiveUpMs: 5_000,
  heartbeatIntervalMs: 500,
  lockBusyRetryMs: 300,
  jobLockTimeoutMs: 60_000,
  lockDurationMs: 3_000,
  stalledIntervalMs: 1_500,
  repairIntervalMs: 1_000,
  shutdownGraceMs: 5_000,
};

export interface StackOptions {
  logDir: string;
  log: (line: string) => void;
  rateLimitPerMinute: number;
  /** AI_DAILY_PURCHASE_CAP of every role; null leaves it unset. */
  dailyPurchaseCap: number | null;
}

export interface SpawnedWorker {
  child: RunningChild;
  /** Its /readyz, once the worker has said which port it listens on. */
  readyUrl: Promise<string>;
}

export interface ChaosStack {
  databaseUrl: string;
  redisUrl: string;
  queueSuffix: string;
  s3Endpoint: string;
  simulatorOrigin: string;
  apiUrl: string;
  /** A worker process, not yet ready; `enabled` is its AI_ROOM_STAGING_ENABLED. */
  spawnWorker(name: string, enabled: boolean): Promise<SpawnedWorker>;
  /** The api process, when it has to be restarted after dying on its own. */
  restartApi(): Promise<void>;
  api(): RunningChild;
  stop(): Promise<void>;
}

/** The port in the worker's "worker health server listening" line, or null for any other line. */
function healthPortOf(line: string): number | null {
  if (!line.includes('worker health server listening')) return null;
  try {
    const port: unknown = (JSON.parse(line) as { port?: unknown }).port;
    return typeof port === 'number' ? port : null;
  } catch {
    return null;
  }
}

function baseEnv(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME };
}

async function startRedis(logDir: string): Promise<{ child: RunningChild; url: string }> {
  const port = await freePort();
  const child = startChild({
    name: 'redis',
    command: 'redis-server',
    args: ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    cwd: logDir,
    env: baseEnv(),
    logDir,
  });
  const url = `redis://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (!child.isRunning()) throw new Error(`redis-server did not start (is it installed?); see ${child.logFile}`);
    const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    redis.on('error', () => undefined);
    const pong = await redis.connect().then(() => redis.ping(), () => null);
    redis.disconnect();
    if (pong === 'PONG') return { child, url };
    if (Date.now() > deadline) throw new Error(`redis-server did not answer on ${url}`);
    await sleep(100);
  }
}

async function startSimulator(logDir: string): Promise<{ child: RunningChild; origin: string; url: string; mode: string }> {
  const cli = path.join(repoRoot, 'tools/provider-simulator/src/cli.ts');
  let announce: (value: { url: string; origin: string; mode: string }) => void = () => undefined;
  const started = new Promise<{ url: string; origin: string; mode: string }>((resolve) => (announce = resolve));
  const child = startChild({
    name: 'provider-simulator',
    command: process.execPath,
    args: ['--import', 'tsx', cli],
    cwd: path.dirname(cli),
    env: {
      ...baseEnv(),
      SIM_PORT: '0',
      SIM_TOKEN: TEST_SECRETS.PROVIDER_API_TOKEN,
      SIM_WEBHOOK_SECRET: TEST_SECRETS.PROVIDER_WEBHOOK_SIGNING_SECRET,
      SIM_COMPLETION_DELAY_MS: '400',
    },
    logDir,
    onLine(line) {
      if (!line.includes('provider_simulator_started')) return;
      const parsed = JSON.parse(line) as { url: string; origin?: string; mode?: string };
      announce({ url: parsed.url, origin: parsed.origin ?? new URL(parsed.url).origin, mode: parsed.mode ?? 'unknown' });
    },
  });
  const result = await Promise.race([
    started,
    child.exited.then(() => null),
    sleep(BOOT_TIMEOUT_MS).then(() => null),
  ]);
  if (result === null) throw new Error(`the provider simulator did not start; see ${child.logFile}`);
  return { child, ...result };
}

export async function startChaosStack(options: StackOptions): Promise<ChaosStack> {
  const { logDir, log } = options;
  const queueSuffix = uniqueQueueSuffix('-chaos-');
  return buildStack(async (stack) => {
    const database = await stack.database();
    log(`database ${database.name} created and migrated`);
    const s3 = await stack.s3rver({ buckets: [CHAOS_BUCKET] });
    const redisServer = await startRedis(logDir);
    stack.defer(() => redisServer.child.stop(5_000));
    const children: RunningChild[] = [];
    stack.defer(() => Promise.all(children.map((c) => c.stop(10_000))));
    log(`redis-server ${redisServer.url} and s3rver ${s3.endpoint} up`);
    const simulator = await startSimulator(logDir);
    children.push(simulator.child);
    log(`provider simulator ${simulator.origin} up (its own process, ${simulator.mode} mode)`);

    const shared = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      DATABASE_URL: database.url,
      VALKEY_URL: redisServer.url,
      QUEUE_SUFFIX: queueSuffix,
      S3_ENDPOINT: s3.endpoint,
      S3_REGION: 'us-east-1',
      S3_BUCKET: CHAOS_BUCKET,
      S3_FORCE_PATH_STYLE: 'true',
      ...(options.dailyPurchaseCap === null ? {} : { AI_DAILY_PURCHASE_CAP: String(options.dailyPurchaseCap) }),
    };
    const apiPort = await freePort();
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    const apiEnv = { ...baseEnv(), ...apiTestEnv({ ...shared, PORT: String(apiPort), API_ORIGIN: apiUrl }) };
    let api: RunningChild | undefined;
    const startApi = async () => {
      api = startChild({
        name: 'api',
        command: process.execPath,
        args: ['--import', 'tsx', 'src/main.ts'],
        cwd: path.join(repoRoot, 'apps/api'),
        env: apiEnv,
        logDir,
      });
      children.push(api);
      await waitForHttpOk(api, `${apiUrl}/healthz`, BOOT_TIMEOUT_MS);
    };
    await startApi();
    log(`api ${apiUrl} healthy`);

    const workerEnv = (enabled: boolean): NodeJS.ProcessEnv => ({
      ...baseEnv(),
      ...workerTestEnv({
        ...shared,
        PORT: '0',
        AI_ROOM_STAGING_ENABLED: String(enabled),
        AI_STAGING_RATE_LIMIT_PER_MINUTE: String(options.rateLimitPerMinute),
        AI_STAGING_CONCURRENCY: '4',
        PROVIDER_API_BASE_URL: simulator.url,
        PROVIDER_WEBHOOK_BASE_URL: apiUrl,
        // Above any simulated run (slow: 2.5 s), below nothing the audit needs.
        PROVIDER_CANCEL_AFTER_SECONDS: '30',
        // Orphans are canceled within seconds, well inside the drain the audit waits for.
        PROVIDER_RECONCILE_INTERVAL_MS: '5000',
        ALLOW_INSECURE_WEBHOOK_BASE_URL: 'true',
        DELETION_OUTBOX_INTERVAL_MS: '500',
      }),
    });

    return {
      databaseUrl: database.url,
      redisUrl: redisServer.url,
      queueSuffix,
      s3Endpoint: s3.endpoint,
      simulatorOrigin: simulator.origin,
      apiUrl,
      async spawnWorker(name, enabled) {
        // Port 0, read back from the worker's own line: a port found free here and bound by the
        // worker only after its boot could meanwhile become some connection's local port, and
        // the restarted worker then died with EADDRINUSE (seed 53).
        let announce!: (url: string) => void;
        const readyUrl = new Promise<string>((resolve) => (announce = resolve));
        const child = startChild({
          name,
          command: process.execPath,
          // `--import tsx` keeps the worker the spawned process itself, so SIGKILL hits it directly.
          args: ['--import', 'tsx', 'src/main.ts', `--test-timings=${JSON.stringify(CHAOS_WORKER_TIMINGS)}`],
          cwd: path.join(repoRoot, 'apps/worker'),
          env: workerEnv(enabled),
          logDir,
          onLine: (line) => {
            const port = healthPortOf(line);
            if (port !== null) announce(`http://127.0.0.1:${port}/readyz`);
          },
        });
        children.push(child);
        return { child, readyUrl };
      },
      restartApi: startApi,
      api: () => {
        if (api === undefined) throw new Error('chaos: the api has not started');
        return api;
      },
      stop: stack.stop,
    };
  });
}
