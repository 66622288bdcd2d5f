// The whole stack for the browser tests, on free loopback ports and in namespaces of its own: a
// fresh migrated database, a queue suffix, s3rver, provider simulators (in this process), and
// api, worker and instances of the built web app (`next start`) as child processes. Besides the
// main one, a web instance runs with the kill switch off and one with its database and Redis out
// of reach, so those states are tested against a real server configuration rather than mocks.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { createDb } from '@staging/db/client';
import { createObjectStorage } from '@staging/platform/storage';
import { Redis } from 'ioredis';
import { appEnvs } from './app-env';
import { baseEnv } from './child-app';
import type { ChildApp, ChildAppLauncher } from './child-app';
import { ensureLocalServices } from './local-services';
import { repoRoot } from './paths';
import { buildStack, s3rverEnv, uniqueQueueSuffix } from './stack-builder';
import type { StackBuilder } from './stack-builder';
import type { E2eSecrets, E2eStackInfo } from './e2e-types';
import { deleteKeysMatching } from '@staging/platform/redis-keys';
import { freePort } from './free-port';
import { workerHealthPortOf } from './worker-port';

export interface E2eStack {
  info: E2eStackInfo;
  stop(): Promise<void>;
}

export interface StartE2eStackOptions {
  secrets: E2eSecrets;
  /** Directory for one log file per child process. */
  logDir: string;
  /** Completion delay of the provider simulator; short so a staging job ends within seconds. */
  completionDelayMs?: number;
}

const S3_BUCKET = 'staging-e2e';
const HEALTH_TIMEOUT_MS = 90_000;
const STOP_GRACE_MS = 10_000;

/** Deletes this run's queue keys and search documents; never touches other namespaces. */
async function cleanRedis(valkeyUrl: string, queueSuffix: string, propertyIds: string[]): Promise<void> {
  const redis = new Redis(valkeyUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    await deleteKeysMatching(redis, `*${queueSuffix}*`);
    for (let i = 0; i < propertyIds.length; i += 500)
      await redis.del(...propertyIds.slice(i, i + 500).map((id) => `psearch:property:${id}`));
  } finally {
    redis.disconnect();
  }
}

/** s3rver with the run's bucket in place. */
async function startStorage(stack: StackBuilder, secrets: E2eSecrets): Promise<string> {
  const s3 = await stack.s3rver({ buckets: [S3_BUCKET] });
  const storage = createObjectStorage({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: secrets.S3_SECRET_ACCESS_KEY,
    bucket: S3_BUCKET,
    forcePathStyle: true,
  });
  await storage.ensureBucket();
  storage.close();
  return s3.endpoint;
}

/**
 * A provider account per world. Both worlds send the same bucket and callback origin, the marks by
 * which a worker knows a prediction as its own: on one shared account the paused world's orphan
 * pass found the main world's running purchases in no attempt of its database and canceled them,
 * and the main world bought a second attempt.
 */
function startSimulators(stack: StackBuilder, secrets: E2eSecrets, completionDelayMs: number) {
  const options = {
    port: 0,
    token: secrets.PROVIDER_API_TOKEN,
    webhookSigningSecret: secrets.PROVIDER_WEBHOOK_SIGNING_SECRET,
    completionDelayMs,
  };
  return Promise.all([stack.simulator(options), stack.simulator(options)]);
}

/** What the app processes of both worlds are started from. */
interface AppLaunch {
  start: ChildAppLauncher;
  envs: ReturnType<typeof appEnvs<string | undefined>>;
  webUrl: string;
  paused: { databaseUrl: string; queueSuffix: string; simulatorUrl: string };
  /** One of the free ports found together at the start, so no two apps are given the same. */
  port(): number;
}

/** An app and the URL that answers once it is up (a promise while the app has yet to announce it). */
interface Launched {
  app: ChildApp;
  healthUrl: string | Promise<string>;
}

function startApi(launch: AppLaunch, port: number): Launched {
  const tsx = path.join(repoRoot, 'node_modules', '.bin', 'tsx');
  const env = { ...launch.envs.api, PORT: String(port), API_ALLOWED_ORIGINS: launch.webUrl };
  const app = launch.start({ name: 'api', command: tsx, args: ['src/main.ts'], cwd: path.join(repoRoot, 'apps/api'), env });
  return { app, healthUrl: `http://127.0.0.1:${port}/healthz` };
}

/** The main world's worker, and the paused world's with the kill switch off. */
function startWorkers(launch: AppLaunch): Launched[] {
  const tsx = path.join(repoRoot, 'node_modules', '.bin', 'tsx');
  const worker = (name: string, env: Record<string, string> = {}): Launched => {
    const app = launch.start({
      name,
      command: tsx,
      args: ['src/main.ts'],
      cwd: path.join(repoRoot, 'apps/worker'),
      env: {
        ...launch.envs.worker,
        // Nobody else needs a worker's port, so it takes one from the OS and announces it.
        PORT: '0',
        // Several jobs start within a minute of each other in the staging tests; one every 2 s keeps
        // a batch of 16 in line long enough to watch on a loaded machine.
        AI_STAGING_RATE_LIMIT_PER_MINUTE: '30',
        DELETION_OUTBOX_INTERVAL_MS: '1000',
        ...env,
      },
    });
    const port = app.waitForLine(workerHealthPortOf, { what: '"worker health server listening" line' });
    return { app, healthUrl: port.then((bound) => `http://127.0.0.1:${bound}/healthz`) };
  };
  const { databaseUrl, queueSuffix, simulatorUrl } = launch.paused;
  return [
    worker('worker'),
    worker('worker-paused', {
      DATABASE_URL: databaseUrl,
      QUEUE_SUFFIX: queueSuffix,
      AI_ROOM_STAGING_ENABLED: 'false',
      PROVIDER_API_BASE_URL: simulatorUrl,
    }),
  ];
}

/** Every web instance runs the same build; only its environment differs. */
function startWebs(launch: AppLaunch, webPort: number) {
  const webDir = path.join(repoRoot, 'apps/web');
  const nextBin = path.join(webDir, 'node_modules/.bin/next');
  // The tests play the TLS proxy in front of the production web: their X-Forwarded-For names the
  // client (postSignIn), and a production web refuses to start trusting no proxy.
  const webEnv = { ...launch.envs.web, NODE_ENV: 'production', TRUSTED_PROXY_HOPS: '1' };
  const web = (name: string, env: Record<string, string> = {}, port = launch.port()) => {
    const app = launch.start({ name, command: nextBin, args: ['start', '--port', String(port), '--hostname', '127.0.0.1'], cwd: webDir, env: { ...webEnv, PORT: String(port), ...env } });
    const url = `http://127.0.0.1:${port}`;
    return { app, url, healthUrl: `${url}/healthz` };
  };
  const paused = { DATABASE_URL: launch.paused.databaseUrl, QUEUE_SUFFIX: launch.paused.queueSuffix };
  return {
    main: web('web', {}, webPort),
    disabled: web('web-disabled', { AI_ROOM_STAGING_ENABLED: 'false' }),
    // Also the deployment without prices: its stage panel shows "not priced" (an empty value is unset).
    paused: web('web-paused', { ...paused, AI_STAGING_COST_MICROUSD_MEDIUM: '' }),
    // Port 1 refuses connections at once (nothing listens there and no test can bind it), so
    // every database and Redis call of this instance fails as in an outage.
    outage: web('web-outage', { DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/outage', VALKEY_URL: 'redis://127.0.0.1:1' }),
    // The paused world once more, polling once an hour: within a test its pages can only change
    // by the live stream. Its worker buys nothing, so these tests never take predictions (or
    // scripted faults) the staging tests count on.
    pushOnly: web('web-push-only', { ...paused, DASHBOARD_POLL_SECONDS: '3600' }),
  };
}

export async function startE2eStack(options: StartE2eStackOptions): Promise<E2eStack> {
  const { secrets, logDir } = options;
  mkdirSync(logDir, { recursive: true });
  const { adminDatabaseUrl, valkeyUrl } = await ensureLocalServices(process.env);
  const queueSuffix = uniqueQueueSuffix('-e2e-');
  const pausedSuffix = `${queueSuffix}-paused`;

  return buildStack(async (stack) => {
    const [database, pausedDatabase] = await Promise.all([stack.database({ adminUrl: adminDatabaseUrl }), stack.database({ adminUrl: adminDatabaseUrl })]);
    stack.defer(async () => {
      const propertyIds: string[] = [];
      for (const db of [database, pausedDatabase]) propertyIds.push(...(await listPropertyIds(db.url).catch(() => [])));
      // The pattern of the main suffix also matches the paused world's keys.
      await cleanRedis(valkeyUrl, queueSuffix, propertyIds).catch(() => undefined);
    });
    const s3Endpoint = await startStorage(stack, secrets);
    const [simulator, pausedSimulator] = await startSimulators(stack, secrets, options.completionDelayMs ?? 1_500);
    // group: tsx and next start spawn processes of their own, which a stop must end too.
    const start = stack.apps({ logDir, group: true }, STOP_GRACE_MS);
    const ports = await Promise.all(Array.from({ length: 6 }, () => freePort()));
    const port = () => {
      const next = ports.pop();
      if (next === undefined) throw new Error('e2e: more apps than free ports found for them');
      return next;
    };
    const [apiPort, webPort] = [port(), port()];
    const common = {
      ...baseEnv(),
      // api and worker run as in the test suite (plain-HTTP loopback webhooks are allowed only
      // outside production); the web app runs its production build through `next start`.
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      DATABASE_URL: database.url,
      VALKEY_URL: valkeyUrl,
      QUEUE_SUFFIX: queueSuffix,
      AI_ROOM_STAGING_ENABLED: 'true',
      AI_STAGING_LEGACY_ALIAS_SUNSET_AT: '2027-06-30T23:59:59.999Z',
      // A price, so the dashboard shows an estimate before staging and the worker records one.
      AI_STAGING_COST_MICROUSD_MEDIUM: '42000',
      ...s3rverEnv(s3Endpoint, S3_BUCKET, secrets.S3_SECRET_ACCESS_KEY),
      NEXT_TELEMETRY_DISABLED: '1',
    };
    const webUrl = `http://127.0.0.1:${webPort}`;
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    const envs = appEnvs({ common, secrets, webOrigin: webUrl, apiUrl, simulatorUrl: simulator.url });
    const launch: AppLaunch = { start, envs, webUrl, paused: { databaseUrl: pausedDatabase.url, queueSuffix: pausedSuffix, simulatorUrl: pausedSimulator.url }, port };
    const workerStarted = existsSync(path.join(repoRoot, 'apps/worker/src/main.ts'));
    const api = startApi(launch, apiPort);
    const workers = workerStarted ? startWorkers(launch) : [];
    const webs = startWebs(launch, webPort);
    await Promise.all([api, ...workers, ...Object.values(webs)].map(({ app, healthUrl }) => app.waitForHealth(healthUrl, { timeoutMs: HEALTH_TIMEOUT_MS, intervalMs: 250 })));

    return {
      info: {
        webUrl,
        webDisabledUrl: webs.disabled.url,
        outageWebUrl: webs.outage.url,
        apiUrl,
        simulatorOrigin: simulator.origin,
        databaseUrl: database.url,
        valkeyUrl,
        queueSuffix,
        s3Endpoint,
        s3Bucket: S3_BUCKET,
        workerStarted,
        paused: { webUrl: webs.paused.url, pushOnlyWebUrl: webs.pushOnly.url, databaseUrl: pausedDatabase.url, simulatorOrigin: pausedSimulator.origin },
      },
      stop: stack.stop,
    };
  });
}

async function listPropertyIds(databaseUrl: string): Promise<string[]> {
  const db = createDb(databaseUrl, { maxConnections: 1 });
  try {
    return (await db.property.findMany({ select: { id: true } })).map((row) => row.id);
  } finally {
    await db.$disconnect();
  }
}
