// The stack the worker benchmarks share: the bench stack (private database, queue suffix, the
// api for webhooks), s3rver and the provider simulator in processes of their own, and the worker as
// the image runs it (docker/tsup.config.ts bundle, `node dist/main.js`) in another, its database
// traffic counted by a wire-protocol proxy. Nothing here imports an app.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { TEST_SECRETS, workerTestEnv } from '@staging/config/test-env';
import { createOriginalImage, createProperty, createStagingJob, createUser } from '@staging/db/testing/factories';
import { createObjectStorage } from '@staging/platform/storage';
import type { ObjectStorage } from '@staging/platform/storage';
import { createStagingQueue, enqueueStagingJob } from '@staging/services/staging/staging-queue';
import { baseEnv } from '@staging/stack/child-app';
import type { ChildApp } from '@staging/stack/child-app';
import { freePort } from '@staging/stack/free-port';
import { parsedFields, stringField } from '@staging/stack/json-fields';
import sharp from 'sharp';
import { openBenchStack } from './bench-stack';
import type { BenchStack } from './bench-stack';
import { root } from './http-load';
import type { Server } from './http-load';
import { startPgCountProxy } from './pg-count-proxy';
import type { PgCountProxy } from './pg-count-proxy';
import { present } from './present';

const BUCKET = 'staging-bench';
const workerDir = path.join(root, 'apps/worker');
/**
 * The image resolves the bundle's third-party imports from a flat node_modules (`pnpm deploy
 * --config.node-linker=hoisted`); pnpm's own hoisted directory, node_modules/.pnpm/node_modules,
 * is the same flat layout, so a bundle one level below it resolves them as the image does.
 */
const bundleDir = path.join(root, 'node_modules/.pnpm/.bench-worker');

/**
 * A hang guard, not a speed limit: the slowest wait (a warm-up batch on a starved machine) takes
 * well under a minute, and a line that never comes (cut by other output on the worker's stdout, or
 * a job stuck) should end the run with a message instead of leaving it waiting forever.
 */
const LINE_HANG_GUARD_MS = 300_000;

export interface WorkerProcess {
  pid: number;
  /** Every JSON log line so far. */
  lines: Record<string, unknown>[];
  /**
   * Resolves with the first line (including earlier ones) that `match` accepts; rejects, naming
   * `what`, when none has come within {@link LINE_HANG_GUARD_MS}.
   */
  waitForLine(match: (line: Record<string, unknown>) => boolean, what?: string): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

export interface StagingBenchStack extends BenchStack {
  storage: ObjectStorage;
  /** The api that receives the provider's webhooks (and serves tRPC at /api/trpc). */
  api: Server;
  /** The provider simulator's API base, version prefix included. */
  providerUrl: string;
  /** Counts the worker's statements and transactions (its DATABASE_URL points here). */
  workerDb: PgCountProxy;
  /** Starts the bundled worker with these env overrides, and `nodeArgs` before the bundle (e.g. a preload). */
  startWorker(env: Record<string, string>, options?: { nodeArgs?: string[] }): Promise<WorkerProcess>;
  /** `count` PENDING staging jobs of one new property, each with a stored original, not enqueued. */
  seedJobs(count: number, photo: Buffer, staging: { aspectRatio: string; outputFormat: string }): Promise<string[]>;
  /** Puts jobs on the ai-staging queue, as the producer does after its commit. */
  enqueue(jobIds: string[]): Promise<void>;
}

/**
 * The ENV of the worker image's runtime stage (docker/Dockerfile.worker), so the bundle runs with
 * what the image sets, e.g. its malloc tuning. The bench's own settings are applied over it.
 */
function imageEnv(): Record<string, string> {
  const dockerfile = readFileSync(path.join(root, 'docker/Dockerfile.worker'), 'utf8');
  const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  const pairs = [...runtime.matchAll(/^ENV (.+)$/gm)].flatMap((match) => present(match[1], 'an ENV line of the worker image').trim().split(/\s+/));
  return Object.fromEntries(pairs.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
}

/** Bundles apps/worker/src/main.ts with the image's tsup config (about a second). */
function buildWorkerBundle(): Promise<string> {
  const tsup = path.join(workerDir, 'node_modules/.bin/tsup');
  const child = spawn(tsup, ['--config', '../../docker/tsup.config.ts', '--out-dir', bundleDir, '--silent'], {
    cwd: workerDir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return new Promise((resolve, reject) =>
    child.once('close', (code) => (code === 0 ? resolve(path.join(bundleDir, 'main.js')) : reject(new Error(`tsup exited with ${code}`)))),
  );
}

/** A JSON log line's fields, or undefined for any other line. */
function jsonLine(text: string): Record<string, unknown> | undefined {
  return text.startsWith('{') ? parsedFields(text) : undefined;
}

/** The string field `field` of the JSON line that announces a process started (it includes `announces`). */
function announced(child: ChildApp, announces: string, field: string): Promise<string> {
  return child.waitForLine((text) => (text.includes(announces) ? stringField(parsedFields(text), field) : undefined), { what: `line with ${announces}` });
}

/** s3rver and the provider simulator (`simulator`: its SIM_* settings), each in a process of its own. */
async function startProviders(stack: BenchStack, simulator: Record<string, string>): Promise<{ s3Endpoint: string; simulatorUrl: string }> {
  const tsx = (script: string, args: string[], env: Record<string, string>) =>
    stack.start({ name: path.basename(script), args: ['--import', 'tsx', script, ...args], env: { ...process.env, ...env } });
  const s3rver = tsx('tools/bench/s3rver-process.ts', [BUCKET], {});
  const sim = tsx('tools/provider-simulator/src/cli.ts', [], {
    SIM_PORT: '0',
    SIM_TOKEN: TEST_SECRETS.PROVIDER_API_TOKEN,
    SIM_WEBHOOK_SECRET: TEST_SECRETS.PROVIDER_WEBHOOK_SIGNING_SECRET,
    ...simulator,
  });
  const [s3Endpoint, simulatorUrl] = await Promise.all([announced(s3rver, '"endpoint"', 'endpoint'), announced(sim, 'provider_simulator_started', 'url')]);
  return { s3Endpoint, simulatorUrl };
}

/** What the worker's environment is made of besides the bench's own settings. */
interface WorkerSetting {
  databaseUrl: string;
  s3Endpoint: string;
  simulatorUrl: string;
  apiPort: number;
}

function benchWorkerEnv(stack: BenchStack, setting: WorkerSetting, port: number, env: Record<string, string>): Record<string, string | undefined> {
  return {
    ...baseEnv(),
    ...imageEnv(),
    ...workerTestEnv({
      // Production config refuses the loopback http provider and webhook origins used here.
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      PORT: String(port),
      DATABASE_URL: setting.databaseUrl,
      VALKEY_URL: stack.valkeyUrl,
      QUEUE_SUFFIX: stack.queueSuffix,
      S3_ENDPOINT: setting.s3Endpoint,
      S3_REGION: 'us-east-1',
      S3_BUCKET: BUCKET,
      S3_FORCE_PATH_STYLE: 'true',
      PROVIDER_API_BASE_URL: setting.simulatorUrl,
      PROVIDER_WEBHOOK_BASE_URL: `http://127.0.0.1:${setting.apiPort}`,
      ALLOW_INSECURE_WEBHOOK_BASE_URL: 'true',
      AI_STAGING_RATE_LIMIT_PER_MINUTE: '100000',
      // The outbox has nothing to do here; its pass would only add idle statements.
      DELETION_OUTBOX_INTERVAL_MS: '3600000',
      ...env,
    }),
  };
}

/** The bundled worker (`entry`) with `nodeArgs` before the bundle, resolved once it logged "worker started". */
async function startBundledWorker(stack: BenchStack, entry: string, nodeArgs: string[], env: Record<string, string | undefined>): Promise<WorkerProcess> {
  // BENCH_NODE_ARGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) as for the HTTP benches' servers.
  const extra = process.env.BENCH_NODE_ARGS?.split(' ').filter((arg) => arg !== '') ?? [];
  const child = stack.start({ name: 'worker', args: [...extra, ...nodeArgs, '--enable-source-maps', entry], cwd: workerDir, env });
  const lines: Record<string, unknown>[] = [];
  child.onLine((text) => {
    const line = jsonLine(text);
    if (line !== undefined) lines.push(line);
  });
  const waitForLine: WorkerProcess['waitForLine'] = async (match, what = 'a matching log line') =>
    lines.find(match) ??
    child.waitForLine(
      (text) => {
        const line = jsonLine(text);
        return line !== undefined && match(line) ? line : undefined;
      },
      { timeoutMs: LINE_HANG_GUARD_MS, what },
    );
  await waitForLine((line) => line['msg'] === 'worker started', 'worker started');
  return {
    pid: present(child.process.pid, 'the worker pid'),
    lines,
    waitForLine,
    async stop() {
      await child.stop();
    },
  };
}

export async function openStagingBenchStack(options: { simulator: Record<string, string>; api?: Record<string, string> }): Promise<StagingBenchStack> {
  const stack = await openBenchStack('bench-staging');
  // A benchmark that throws must not leave its api, simulator, s3rver or worker running.
  process.once('exit', () => {
    for (const child of stack.children) if (child.isRunning()) child.process.kill('SIGKILL');
  });
  // The simulator's and s3rver's CPU is neither the worker's nor the measuring client's.
  const [{ s3Endpoint, simulatorUrl }, entry] = await Promise.all([startProviders(stack, options.simulator), buildWorkerBundle()]);
  const storage = createObjectStorage({ endpoint: s3Endpoint, region: 'us-east-1', bucket: BUCKET, accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true });
  const workerDb = await startPgCountProxy(
    stack.databaseUrl,
    process.env.BENCH_PG_LOG === '1' ? (sql) => console.error(`[worker sql] ${sql.replace(/\s+/g, ' ').slice(0, 160)}`) : undefined,
  );
  const api = await stack.startApi('api', options.api);
  const queue = createStagingQueue(stack.redis, stack.queueSuffix);
  const setting: WorkerSetting = { databaseUrl: workerDb.url, s3Endpoint, simulatorUrl, apiPort: api.port };
  return {
    ...stack,
    storage,
    api,
    providerUrl: simulatorUrl,
    workerDb,
    async startWorker(env, { nodeArgs = [] } = {}) {
      return startBundledWorker(stack, entry, nodeArgs, benchWorkerEnv(stack, setting, await freePort(), env));
    },
    async seedJobs(count, photo, staging) {
      const owner = await createUser(stack.db);
      const property = await createProperty(stack.db, { ownerAgentId: owner.id });
      const ids: string[] = [];
      for (let i = 0; i < count; i += 1) {
        const original = await createOriginalImage(stack.db, { propertyId: property.id });
        await storage.putObject(original.objectKey, photo, 'image/jpeg');
        const job = await createStagingJob(stack.db, { original, job: { requestedByUserId: owner.id }, staging });
        ids.push(job.id);
      }
      return ids;
    },
    async enqueue(jobIds) {
      for (const id of jobIds) await enqueueStagingJob(queue, id);
    },
    async close() {
      await queue.close();
      await stack.close();
      await workerDb.close();
      storage.close();
    },
  };
}

/**
 * A photo-sized image of noise. The simulator derives its output from the input photo, and noise
 * does not compress: a PNG of w×h noise is about 3·w·h bytes (less for a smaller `sigma`).
 */
export function noiseImage(width: number, height: number, format: 'jpeg' | 'png', sigma = 30): Promise<Buffer> {
  const image = sharp({
    create: { width, height, channels: 3, background: { r: 150, g: 120, b: 90 }, noise: { type: 'gaussian', mean: 120, sigma } },
  });
  return (format === 'png' ? image.png() : image.jpeg({ quality: 80 })).toBuffer();
}

/** CPU seconds (user + system) of each thread of `pid`, by thread name (comm). */
export function threadCpuSeconds(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const key = tid === String(pid) ? 'main' : name;
      byName.set(key, (byName.get(key) ?? 0) + (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return byName;
}

/** A /proc/<pid>/status field in kB (VmRSS, VmHWM). */
export function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Number(line?.replace(/\D+/g, '') ?? 0);
}
