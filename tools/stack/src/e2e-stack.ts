// The whole stack for the browser tests, on free loopback ports and in namespaces of its own: a
// fresh migrated database, a queue suffix, s3rver, the provider simulator (in this process), and
// api, worker and instances of the built web app (`next start`) as child processes. Besides the
// main one, a web instance runs with the kill switch off and one with its database and Redis out
// of reach, so those states are tested against a real server configuration rather than mocks.
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, type WriteStream } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createDb } from '@staging/db/client';
import { createObjectStorage } from '@staging/platform/storage';
import { Redis } from 'ioredis';
import { appEnvs } from './app-env';
import { ensureLocalServices } from './local-services';
import { repoRoot } from './paths';
import { buildStack, s3rverEnv, uniqueQueueSuffix } from './stack-builder';
import type { E2eSecrets, E2eStackInfo } from './e2e-types';
import { deleteKeysMatching } from '@staging/platform/redis-keys';
import { freePort } from './free-port';

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

async function waitForHealth(name: string, url: string, child: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode} before it was healthy; see ${logFile}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  throw new Error(`${name} did not answer ${url} within ${HEALTH_TIMEOUT_MS / 1000}s; see ${logFile}`);
}

interface Child {
  name: string;
  process: ChildProcess;
  log: WriteStream;
  logFile: string;
}

function startChild(name: string, [command, ...args]: [string, ...string[]], cwd: string, env: NodeJS.ProcessEnv, logDir: string): Child {
  const logFile = path.join(logDir, `${name}.log`);
  const log = createWriteStream(logFile, { flags: 'w' });
  // detached: each child leads its own process group, so stop() can end the whole group (tsx
  // and next start spawn grandchildren) by the id of the process started here.
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  return { name, process: child, log, logFile };
}

async function stopChild(child: Child): Promise<void> {
  const { process: proc } = child;
  if (proc.exitCode === null && proc.signalCode === null && proc.pid !== undefined) {
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    try {
      process.kill(-proc.pid, 'SIGTERM');
    } catch {
      // already gone
    }
    const timedOut = await Promise.race([exited.then(() => false), sleep(10_000).then(() => true)]);
    if (timedOut) {
      try {
        process.kill(-proc.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  child.log.end();
}

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

export async function startE2eStack(options: StartE2eStackOptions): Promise<E2eStack> {
  const { secrets, logDir } = options;
  mkdirSync(logDir, { recursive: true });
  const { adminDatabaseUrl, valkeyUrl } = await ensureLocalServices(process.env);

  const queueSuffix = uniqueQueueSuffix('-e2e-');
  const pausedSuffix = `${queueSuffix}-paused`;

  return buildStack(async (stack) => {
    const [database, pausedDatabase] = await Promise.all([
      stack.database({ adminUrl: adminDatabaseUrl }),
      stack.database({ adminUrl: adminDatabaseUrl }),
    ]);
    stack.defer(async () => {
      const propertyIds: string[] = [];
      for (const db of [database, pausedDatabase]) propertyIds.push(...(await listPropertyIds(db.url).catch(() => [])));
      // The pattern of the main suffix also matches the paused world's keys.
      await cleanRedis(valkeyUrl, queueSuffix, propertyIds).catch(() => undefined);
    });
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
    const simulator = await stack.simulator({
      port: 0,
      token: secrets.PROVIDER_API_TOKEN,
      webhookSigningSecret: secrets.PROVIDER_WEBHOOK_SIGNING_SECRET,
      completionDelayMs: options.completionDelayMs ?? 1_500,
    });
    const children: Child[] = [];
    stack.defer(() => Promise.all(children.map(stopChild)));

    const [apiPort, workerPort, webPort, webDisabledPort, pausedWorkerPort, pausedWebPort, outageWebPort, pushOnlyWebPort] = await Promise.all([
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
    ]);
    const common: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
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
      ...s3rverEnv(s3.endpoint, S3_BUCKET, secrets.S3_SECRET_ACCESS_KEY),
      NEXT_TELEMETRY_DISABLED: '1',
    };
    const webUrl = `http://127.0.0.1:${webPort}`;
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    const envs = appEnvs({ common, secrets, webOrigin: webUrl, apiUrl, simulatorUrl: simulator.url });
    const tsx = path.join(repoRoot, 'node_modules', '.bin', 'tsx');

    const api = startChild('api', [tsx, 'src/main.ts'], path.join(repoRoot, 'apps/api'), {
      ...envs.api,
      PORT: String(apiPort),
      API_ALLOWED_ORIGINS: webUrl,
    }, logDir);
    children.push(api);

    const workerMain = path.join(repoRoot, 'apps/worker/src/main.ts');
    const workerStarted = existsSync(workerMain);
    const workerEnv = (port: number): NodeJS.ProcessEnv => ({
      ...envs.worker,
      PORT: String(port),
      // Several jobs start within a minute of each other in the staging tests; one every 2 s keeps
      // a batch of 16 in line long enough to watch on a loaded machine.
      AI_STAGING_RATE_LIMIT_PER_MINUTE: '30',
      DELETION_OUTBOX_INTERVAL_MS: '1000',
    });
    const workers: { child: Child; port: number }[] = [];
    if (workerStarted) {
      workers.push({ child: startChild('worker', [tsx, 'src/main.ts'], path.join(repoRoot, 'apps/worker'), workerEnv(workerPort), logDir), port: workerPort });
      workers.push({
        child: startChild('worker-paused', [tsx, 'src/main.ts'], path.join(repoRoot, 'apps/worker'), {
          ...workerEnv(pausedWorkerPort),
          DATABASE_URL: pausedDatabase.url,
          QUEUE_SUFFIX: pausedSuffix,
          AI_ROOM_STAGING_ENABLED: 'false',
        }, logDir),
        port: pausedWorkerPort,
      });
      children.push(...workers.map((w) => w.child));
    }

    const nextBin = path.join(repoRoot, 'apps/web/node_modules/.bin/next');
    const webDir = path.join(repoRoot, 'apps/web');
    // The tests play the TLS proxy in front of the production web: their X-Forwarded-For names the
    // client (postSignIn), and a production web refuses to start trusting no proxy.
    const webEnv = { ...envs.web, NODE_ENV: 'production', TRUSTED_PROXY_HOPS: '1' };
    // Every web instance runs the same build; only its environment differs.
    const startWeb = (name: string, port: number, env: NodeJS.ProcessEnv = {}) => ({
      child: startChild(name, [nextBin, 'start', '--port', String(port), '--hostname', '127.0.0.1'], webDir, {
        ...webEnv,
        PORT: String(port),
        ...env,
      }, logDir),
      url: `http://127.0.0.1:${port}`,
    });
    const web = startWeb('web', webPort);
    const webDisabled = startWeb('web-disabled', webDisabledPort, { AI_ROOM_STAGING_ENABLED: 'false' });
    // Also the deployment without prices: its stage panel shows "not priced" (an empty value is unset).
    const webPaused = startWeb('web-paused', pausedWebPort, {
      DATABASE_URL: pausedDatabase.url,
      QUEUE_SUFFIX: pausedSuffix,
      AI_STAGING_COST_MICROUSD_MEDIUM: '',
    });
    // Port 1 refuses connections at once (nothing listens there and no test can bind it), so
    // every database and Redis call of this instance fails as in an outage.
    const webOutage = startWeb('web-outage', outageWebPort, {
      DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/outage',
      VALKEY_URL: 'redis://127.0.0.1:1',
    });
    // The paused world once more, polling once an hour: within a test its pages can only change
    // by the live stream. Its worker buys nothing, so these tests never take predictions (or
    // scripted faults) the staging tests count on.
    const webPushOnly = startWeb('web-push-only', pushOnlyWebPort, {
      DATABASE_URL: pausedDatabase.url,
      QUEUE_SUFFIX: pausedSuffix,
      DASHBOARD_POLL_SECONDS: '3600',
    });
    const webs = [web, webDisabled, webPaused, webOutage, webPushOnly];
    children.push(...webs.map((w) => w.child));

    await Promise.all([
      waitForHealth('api', `${apiUrl}/healthz`, api.process, api.logFile),
      ...workers.map((w) => waitForHealth(w.child.name, `http://127.0.0.1:${w.port}/healthz`, w.child.process, w.child.logFile)),
      ...webs.map((w) => waitForHealth(w.child.name, `${w.url}/healthz`, w.child.process, w.child.logFile)),
    ]);

    return {
      info: {
        webUrl,
        webDisabledUrl: webDisabled.url,
        outageWebUrl: webOutage.url,
        apiUrl,
        simulatorOrigin: simulator.origin,
        databaseUrl: database.url,
        valkeyUrl,
        queueSuffix,
        s3Endpoint: s3.endpoint,
        s3Bucket: S3_BUCKET,
        workerStarted,
        paused: { webUrl: webPaused.url, pushOnlyWebUrl: webPushOnly.url, databaseUrl: pausedDatabase.url },
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
