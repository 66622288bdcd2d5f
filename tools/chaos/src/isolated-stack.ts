// The stack a chaos run owns alone: a fresh migrated database, its own redis-server on a free
// port, s3rver with its own directory, the provider simulator (default mode, as its CLI runs it),
// the real api and N real worker processes, all on free loopback ports under one QUEUE_SUFFIX.
import path from 'node:path';
import { apiTestEnv, TEST_SECRETS, workerTestEnv } from '@staging/config/test-env';
import { baseEnv } from '@staging/stack/child-app';
import type { ChildApp, ChildAppLauncher } from '@staging/stack/child-app';
import { freePort } from '@staging/stack/free-port';
import { parsedFields, stringField } from '@staging/stack/json-fields';
import { repoRoot } from '@staging/stack/paths';
import { workerHealthPortOf } from '@staging/stack/worker-port';
import { startPrivateRedis } from '@staging/stack/private-redis';
import { buildStack, uniqueQueueSuffix } from '@staging/stack/stack-builder';

export const CHAOS_BUCKET = 'staging-chaos';
const BOOT_TIMEOUT_MS = 90_000;
const STOP_GRACE_MS = 10_000;
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
  child: ChildApp;
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
  spawnWorker(name: string, enabled: boolean): SpawnedWorker;
  /** The api process, when it has to be restarted after dying on its own. */
  restartApi(): Promise<void>;
  api(): ChildApp;
  stop(): Promise<void>;
}

/** The /readyz of the worker's "worker health server listening" line, or undefined for any other line. */
function readyUrlOf(line: string): string | undefined {
  const port = workerHealthPortOf(line);
  return port === undefined ? undefined : `http://127.0.0.1:${port}/readyz`;
}

/** The simulator's URL, origin and mode from its "provider_simulator_started" line. */
function simulatorStartedOf(line: string): { url: string; origin: string; mode: string } | undefined {
  const fields = line.includes('provider_simulator_started') ? parsedFields(line) : {};
  const url = stringField(fields, 'url');
  if (url === undefined) return undefined;
  return { url, origin: stringField(fields, 'origin') ?? new URL(url).origin, mode: stringField(fields, 'mode') ?? 'unknown' };
}

async function startSimulator(start: ChildAppLauncher): Promise<{ url: string; origin: string; mode: string }> {
  const cli = path.join(repoRoot, 'tools/provider-simulator/src/cli.ts');
  const child = start({
    name: 'provider-simulator',
    args: ['--import', 'tsx', cli],
    cwd: path.dirname(cli),
    env: {
      ...baseEnv(),
      SIM_PORT: '0',
      SIM_TOKEN: TEST_SECRETS.PROVIDER_API_TOKEN,
      SIM_WEBHOOK_SECRET: TEST_SECRETS.PROVIDER_WEBHOOK_SIGNING_SECRET,
      SIM_COMPLETION_DELAY_MS: '400',
    },
  });
  return child.waitForLine(simulatorStartedOf, { timeoutMs: BOOT_TIMEOUT_MS, what: 'provider_simulator_started line' });
}

/** The api on a free port; `start()` again after it died on its own. */
async function chaosApi(start: ChildAppLauncher, shared: Record<string, string>): Promise<{ url: string; start(): Promise<void>; current(): ChildApp }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = { ...baseEnv(), ...apiTestEnv({ ...shared, PORT: String(port), API_ORIGIN: url }) };
  let api: ChildApp | undefined;
  return {
    url,
    async start() {
      api = start({ name: 'api', args: ['--import', 'tsx', 'src/main.ts'], cwd: path.join(repoRoot, 'apps/api'), env });
      await api.waitForHealth(`${url}/healthz`, { timeoutMs: BOOT_TIMEOUT_MS });
    },
    current() {
      if (api === undefined) throw new Error('chaos: the api has not started');
      return api;
    },
  };
}

function chaosWorkerEnv(shared: Record<string, string>, options: StackOptions, simulatorUrl: string, apiUrl: string, enabled: boolean): Record<string, string | undefined> {
  return {
    ...baseEnv(),
    ...workerTestEnv({
      ...shared,
      PORT: '0',
      AI_ROOM_STAGING_ENABLED: String(enabled),
      AI_STAGING_RATE_LIMIT_PER_MINUTE: String(options.rateLimitPerMinute),
      AI_STAGING_CONCURRENCY: '4',
      PROVIDER_API_BASE_URL: simulatorUrl,
      PROVIDER_WEBHOOK_BASE_URL: apiUrl,
      // Above any simulated run (slow: 2.5 s), below nothing the audit needs.
      PROVIDER_CANCEL_AFTER_SECONDS: '30',
      // Orphans are canceled within seconds, well inside the drain the audit waits for.
      PROVIDER_RECONCILE_INTERVAL_MS: '5000',
      ALLOW_INSECURE_WEBHOOK_BASE_URL: 'true',
      DELETION_OUTBOX_INTERVAL_MS: '500',
    }),
  };
}

export async function startChaosStack(options: StackOptions): Promise<ChaosStack> {
  const { logDir, log } = options;
  const queueSuffix = uniqueQueueSuffix('-chaos-');
  return buildStack(async (stack) => {
    const database = await stack.database();
    log(`database ${database.name} created and migrated`);
    const s3 = await stack.s3rver({ buckets: [CHAOS_BUCKET] });
    const redis = await startPrivateRedis({ logDir });
    stack.defer(() => redis.stop());
    const start = stack.apps({ logDir, appendLog: true }, STOP_GRACE_MS);
    log(`redis-server ${redis.url} and s3rver ${s3.endpoint} up`);
    const simulator = await startSimulator(start);
    log(`provider simulator ${simulator.origin} up (its own process, ${simulator.mode} mode)`);
    const shared = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      DATABASE_URL: database.url,
      VALKEY_URL: redis.url,
      QUEUE_SUFFIX: queueSuffix,
      S3_ENDPOINT: s3.endpoint,
      S3_REGION: 'us-east-1',
      S3_BUCKET: CHAOS_BUCKET,
      S3_FORCE_PATH_STYLE: 'true',
      ...(options.dailyPurchaseCap === null ? {} : { AI_DAILY_PURCHASE_CAP: String(options.dailyPurchaseCap) }),
    };
    const api = await chaosApi(start, shared);
    await api.start();
    log(`api ${api.url} healthy`);
    return {
      databaseUrl: database.url,
      redisUrl: redis.url,
      queueSuffix,
      s3Endpoint: s3.endpoint,
      simulatorOrigin: simulator.origin,
      apiUrl: api.url,
      spawnWorker(name, enabled) {
        const child = start({
          name,
          // `--import tsx` keeps the worker the spawned process itself, so SIGKILL hits it directly.
          args: ['--import', 'tsx', 'src/main.ts', `--test-timings=${JSON.stringify(CHAOS_WORKER_TIMINGS)}`],
          cwd: path.join(repoRoot, 'apps/worker'),
          env: chaosWorkerEnv(shared, options, simulator.url, api.url, enabled),
        });
        // Port 0, read back from the worker's own line: a port found free here and bound by the
        // worker only after its boot could meanwhile become some connection's local port, and
        // the restarted worker then died with EADDRINUSE (seed 53).
        return { child, readyUrl: child.waitForLine(readyUrlOf, { what: 'health server line' }) };
      },
      restartApi: api.start,
      api: api.current,
      stop: stack.stop,
    };
  });
}
