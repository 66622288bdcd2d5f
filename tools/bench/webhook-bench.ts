// Webhook receiver benchmark: verified provider callbacks per second and latency percentiles of
// one api process (apps/api/src/main.ts, real Postgres and Redis) against two baselines measured
// in the same run (tools/bench/webhook-bare-server.ts): a bare Express handler that commits the
// same receipt INSERT (the floor) and one that answers at once (no-op). Targets (issue 13): api
// req/s >= 0.8x the floor's and >= 0.5x the no-op's, api p99 <= 2x the floor's.
//
//   node_modules/.bin/tsx tools/bench/webhook-bench.ts [--seconds 4] [--rounds 3] [--concurrency 32]
//
// Each request carries a fresh webhook-id (a new receipt row) for one ACTIVE attempt whose job
// is waiting in the queue, i.e. the full path: verify, receipt statement, wake, 204. The three
// servers take turns for `rounds` rounds so that a burst of load from elsewhere on the machine
// hits all of them alike; each one's figures pool all of its rounds.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
// Relative imports: tools/bench has no package of its own; each package resolves its own deps.
import { TEST_SECRETS, apiTestEnv } from '../../packages/config/src/test-env';
import { createDb } from '../../packages/db/src/client';
import { createOriginalImage, createProperty, createUser } from '../../packages/db/src/testing/factories';
import { createTestDatabase } from '../../packages/db/src/testing';
import { createRedis } from '../../packages/platform/src/queues';
import { signWebhook } from '../../packages/provider/src/webhook-signing';
import { createStagingQueue, enqueueStagingJob } from '../../packages/services/src/staging/staging-queue';
import { printFigure } from './figures';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '2' },
    concurrency: { type: 'string', default: '32' },
  },
});
const SECONDS = Number(args.seconds);
const ROUNDS = Number(args.rounds);
const WARMUP_SECONDS = Number(args.warmup);
const CONCURRENCY = Number(args.concurrency);
const SECRET = TEST_SECRETS.PROVIDER_WEBHOOK_SIGNING_SECRET;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Runs `script` under node with tsx as loader. BENCH_NODE_ARGS (e.g. `--cpu-prof
 * --cpu-prof-dir=/tmp/prof`) go to the measured processes only, for profiling a run.
 */
function startProcess(script: string, env: Record<string, string>): ChildProcess {
  const extra = process.env.BENCH_NODE_ARGS?.split(' ').filter((arg) => arg !== '') ?? [];
  return spawn(process.execPath, [...extra, '--import', 'tsx', script], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function waitForPort(port: number, probePath: string, method = 'GET'): Promise<void> {
  for (let i = 0; i < 200; i += 1) {
    const ok = await new Promise<boolean>((resolve) => {
      const req = http.request({ host: '127.0.0.1', port, path: probePath, method }, (res) => {
        res.resume();
        resolve(res.statusCode !== undefined && res.statusCode < 500);
      });
      req.on('error', () => resolve(false));
      req.end();
    });
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nothing answered on port ${port}`);
}

/** What one server answered during one load period. */
interface Sample {
  latencies: number[];
  seconds: number;
  non2xx: number;
  /** CPU seconds the server process used meanwhile (NaN where /proc is missing). */
  cpuSeconds: number;
}

/** User + system CPU seconds of process `pid` so far, from /proc (clock ticks are 1/100 s on Linux). */
function cpuSecondsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

interface Result {
  requests: number;
  rps: number;
  cpuMsPerRequest: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  non2xx: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Closed-loop load: `CONCURRENCY` keep-alive connections, each sending its next request on reply. */
async function load(server: Server, attemptId: string, predictionId: string, seconds: number): Promise<Sample> {
  const { port } = server;
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const latencies: number[] = [];
  let non2xx = 0;
  const body = JSON.stringify({ id: predictionId, status: 'processing', output: null, error: null, created_at: new Date().toISOString() });
  const deadline = performance.now() + seconds * 1000;

  const one = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const headers = {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        ...signWebhook({ secret: SECRET, webhookId: `msg_${randomUUID()}`, timestamp: new Date(), body }),
      };
      const started = performance.now();
      const req = http.request(
        { host: '127.0.0.1', port, method: 'POST', path: `/api/webhooks/provider/staging/${attemptId}`, agent, headers },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - started);
            if (res.statusCode === undefined || res.statusCode < 200 || res.statusCode >= 300) non2xx += 1;
            resolve();
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });

  const started = performance.now();
  const cpuBefore = cpuSecondsOf(server.pid);
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < deadline) await one();
    }),
  );
  agent.destroy();
  return { latencies, seconds: (performance.now() - started) / 1000, non2xx, cpuSeconds: cpuSecondsOf(server.pid) - cpuBefore };
}

function summarize(samples: Sample[]): Result {
  const latencies = samples.flatMap((sample) => sample.latencies).sort((a, b) => a - b);
  const seconds = samples.reduce((sum, sample) => sum + sample.seconds, 0);
  return {
    requests: latencies.length,
    rps: latencies.length / seconds,
    cpuMsPerRequest: (samples.reduce((sum, sample) => sum + sample.cpuSeconds, 0) * 1000) / latencies.length,
    p50: percentile(latencies, 50),
    p90: percentile(latencies, 90),
    p99: percentile(latencies, 99),
    max: latencies[latencies.length - 1] ?? Number.NaN,
    non2xx: samples.reduce((sum, sample) => sum + sample.non2xx, 0),
  };
}

interface Server {
  name: string;
  port: number;
  pid: number;
}

function row(name: string, r: Result): string {
  const f = (n: number) => n.toFixed(2).padStart(8);
  return `${name.padEnd(22)} ${String(r.requests).padStart(8)} ${r.rps.toFixed(0).padStart(8)} ${f(r.cpuMsPerRequest)} ${f(r.p50)} ${f(r.p90)} ${f(r.p99)} ${f(r.max)} ${String(r.non2xx).padStart(6)}`;
}

async function main(): Promise<void> {
  const database = await createTestDatabase();
  const queueSuffix = `-bench${randomBytes(4).toString('hex')}`;
  const valkeyUrl = process.env.VALKEY_URL ?? 'redis://127.0.0.1:6379';
  const db = createDb(database.url);
  const redis = createRedis(valkeyUrl, { role: 'worker', connectionName: 'webhook-bench' });
  const children: ChildProcess[] = [];
  try {
    const owner = await createUser(db);
    const property = await createProperty(db, { ownerAgentId: owner.id });
    const original = await createOriginalImage(db, { propertyId: property.id });
    const predictionId = `pred_${randomUUID().replace(/-/g, '')}`;
    const job = await db.aiJob.create({
      data: {
        type: 'ROOM_STAGING',
        status: 'PROCESSING',
        dedupeKey: `${original.id}:MODERN`,
        propertyId: property.id,
        staging: {
          create: {
            originalImageId: original.id,
            propertyId: property.id,
            canonicalRoomType: 'LIVING_ROOM',
            canonicalStyle: 'MODERN',
            submittedStyle: 'MODERN',
            providerModel: 'openai/gpt-image-2',
            promptVersion: 'bench',
            prompt: 'bench',
            quality: 'medium',
            aspectRatio: '1:1',
            outputFormat: 'jpeg',
            outputCompression: 92,
          },
        },
        attempts: { create: { attemptNumber: 1, status: 'ACTIVE', providerPredictionId: predictionId } },
      },
      select: { id: true, attempts: { select: { id: true } } },
    });
    const attemptId = job.attempts[0]!.id;
    // Waiting in the queue: every wake-up finds it queued, the steady state while a worker is busy.
    const queue = createStagingQueue(redis, queueSuffix);
    await enqueueStagingJob(queue, job.id);

    const apiPort = await freePort();
    const apiProcess = startProcess('apps/api/src/main.ts', {
      ...(apiTestEnv({
        NODE_ENV: 'production',
        DATABASE_URL: database.url,
        VALKEY_URL: valkeyUrl,
        QUEUE_SUFFIX: queueSuffix,
        PORT: String(apiPort),
        LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
        S3_ENDPOINT: 'http://127.0.0.1:9',
      }) as Record<string, string>),
    });
    children.push(apiProcess);
    const bare = async (name: string, mode: 'noop' | 'insert'): Promise<Server> => {
      const port = await freePort();
      const child = startProcess('tools/bench/webhook-bare-server.ts', { PORT: String(port), BARE_MODE: mode, DATABASE_URL: database.url });
      children.push(child);
      await waitForPort(port, '/');
      return { name, port, pid: child.pid! };
    };
    const servers = [await bare('bare express no-op', 'noop'), await bare('bare express INSERT', 'insert'), { name: 'api verified webhook', port: apiPort, pid: apiProcess.pid! }];
    await waitForPort(apiPort, '/readyz');

    console.log(`warmup ${WARMUP_SECONDS}s each, then ${ROUNDS} rounds of ${SECONDS}s each at concurrency ${CONCURRENCY} (closed loop, keep-alive)`);
    for (const server of servers) await load(server, attemptId, predictionId, WARMUP_SECONDS);
    const samples = servers.map((): Sample[] => []);
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [i, server] of servers.entries()) samples[i]!.push(await load(server, attemptId, predictionId, SECONDS));
    }
    const [noop, floor, api] = samples.map(summarize) as [Result, Result, Result];
    const receipts = await db.aiProviderWebhookReceipt.count({ where: { providerAttemptId: attemptId } });

    console.log(`${'target'.padEnd(22)} ${'requests'.padStart(8)} ${'req/s'.padStart(8)} ${'CPU ms/r'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p90 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'max ms'.padStart(8)} ${'non2xx'.padStart(6)}`);
    for (const [i, server] of servers.entries()) console.log(row(server.name, [noop, floor, api][i]!));
    console.log(`receipts written: ${receipts} (one per 2xx of the INSERT floor and the api, warmup included)`);
    printFigure({ name: 'webhook req/s vs INSERT floor', value: api.rps / floor.rps, target: 0.8, better: 'higher' });
    printFigure({ name: 'webhook req/s vs no-op handler', value: api.rps / noop.rps, target: 0.5, better: 'higher' });
    printFigure({ name: 'webhook p99 vs INSERT floor p99', value: api.p99 / floor.p99, target: 2, better: 'lower' });
    await queue.close();
  } finally {
    for (const child of children) if (child.pid !== undefined && child.exitCode === null) child.kill('SIGTERM');
    await Promise.all(children.map((child) => (child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : undefined)));
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `bull:*${queueSuffix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
    await redis.quit();
    await db.$disconnect();
    await database.drop();
  }
}

await main();
