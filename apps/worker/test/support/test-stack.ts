/**
 * Everything a worker integration test runs against, all real and local: the Jest run's migrated
 * Postgres database, Redis with a queue namespace unique to the test file, s3rver, the provider
 * simulator and a webhook receiver that records receipts and wakes jobs like the api does.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { parseWorkerEnv } from '@staging/config/worker';
import type { ProducerValues } from '@staging/config/producer-values';
import type { WorkerConfig } from '@staging/config/worker';
import { createDb } from '@staging/db/client';
import type { Db } from '@staging/db/client';
import { createOriginalImage, createProperty, createUser } from '@staging/db/testing/factories';
import type { JobStatus } from '@staging/domain/staging-states';
import { createRedis, queueNames } from '@staging/platform/queues';
import { createObjectStorage } from '@staging/platform/storage';
import type { ObjectStorage } from '@staging/platform/storage';
import { createAiQueue } from '@staging/services/description/ai-queue';
import type { AiQueue } from '@staging/services/description/ai-queue';
import { submitStaging } from '@staging/services/staging/submit-staging';
import { createStagingQueue } from '@staging/services/staging/staging-queue';
import type { StagingQueue } from '@staging/services/staging/staging-queue';
import { memoryLogger, producerDeps } from '@staging/services/staging/testing/staging-test-kit';
import type { MemoryLogger } from '@staging/services/staging/testing/staging-test-kit';
import type { RunningS3rver } from '@staging/stack/s3-server';
import { s3rverEnv, stackBuilder, uniqueQueueSuffix } from '@staging/stack/stack-builder';
// The simulator package is not a dependency of the worker (it must stay independent of the code
// it checks), so tests load its sources by path.
import { STAGING_WEBHOOK_PATH_PREFIX } from '@staging/provider/webhook-url';
import type { FaultName, FaultSpec } from '@staging/provider-simulator/faults';
import type { ProviderSimulator, ProviderSimulatorOptions } from '@staging/provider-simulator/simulator';
import { createWorkerApp } from '../../src/create-worker-app';
import type { WorkerApp, WorkerAppOverrides } from '../../src/create-worker-app';
import type { StagingTimings } from '../../src/staging/staging-deps';
import { startTestWebhookReceiver } from './test-webhook-receiver';
import type { TestWebhookReceiver } from './test-webhook-receiver';
import { deleteKeysMatching } from '@staging/platform/redis-keys';
import { makeTestPhoto } from '@staging/provider-simulator/test-photo';
import { spawnWorker } from './worker-process';
import type { SpawnWorkerOptions, WorkerProcess } from './worker-process';
import { STAGING_DISPOSITIONS } from '@staging/domain/dispositions';

export const TEST_TOKEN = 'sim-token-worker-tests-0123456789';
export const TEST_SIGNING_SECRET = `whsec_${Buffer.from('worker test signing key 32 bytes').toString('base64')}`;
const BUCKET = 'staging-worker-test';

/** Short but realistic delays: every path of production runs, in seconds instead of minutes. */
export const FAST_TIMINGS: Partial<StagingTimings> = {
  pollIntervalMs: 1_000,
  disabledRecheckMs: 400,
  retryDelayMs: 150,
  createRecoveryGraceMs: 1_500,
  recoveryPollMs: 250,
  // The simulator's final-webhook retries here end 0.8 s after completion.
  finalWebhookWindowMs: 1_000,
  absenceConfirmGapMs: 500,
  // A prediction that is merely slow because the machine is starved must not time out (a second
  // purchase would break the tests' exact attempt lists); the timeout's own test sets 5 s.
  predictionTimeoutMs: 30_000,
  throttleBaseMs: 200,
  transientBackoffMs: 250,
  // Streaming a 21 MiB oversize output to its cut-off took over 10 s on a starved machine.
  downloadTimeoutMs: 60_000,
  downloadGiveUpMs: 3_000,
  heartbeatIntervalMs: 400,
  lockBusyRetryMs: 250,
  jobLockTimeoutMs: 60_000,
};

export interface SimPredictionView {
  id: string;
  status: string;
  webhook: string | null;
  created_at: string;
  input: Record<string, unknown>;
  fault: { name: string } | null;
  deliveries: { event: string; responseStatus: number | null; error: string | null }[];
}

export interface SeededJob {
  jobId: string;
  propertyId: string;
  originalImageId: string;
  originalKey: string;
  userId: string;
}

export interface RunningWorker {
  app: WorkerApp;
  log: MemoryLogger;
  stop(): Promise<void>;
}

export interface TestStack {
  db: Db;
  redis: Redis;
  suffix: string;
  queueName: string;
  queue: StagingQueue;
  storage: ObjectStorage;
  s3: RunningS3rver;
  sim: ProviderSimulator;
  receiver: TestWebhookReceiver;
  /** Worker environment (what a deployment would set); tests override single variables. */
  env(overrides?: Record<string, string | undefined>): Record<string, string>;
  config(overrides?: Record<string, string | undefined>): WorkerConfig;
  startWorker(options?: {
    env?: Record<string, string | undefined>;
    overrides?: WorkerAppOverrides;
  }): Promise<RunningWorker>;
  seedJob(options?: { photo?: Buffer }): Promise<SeededJob>;
  /** `count` jobs on one property of one agent, submitted in one call (users are slow to hash). */
  seedJobs(
    count: number,
    options?: { photo?: Buffer; producer?: Partial<ProducerValues> },
  ): Promise<SeededJob[]>;
  /** Every prediction the simulator was asked to create (GET /__sim/predictions). */
  predictions(): Promise<SimPredictionView[]>;
  /** Paid predictions of one job: those whose callback URL names one of its attempts. */
  purchasesFor(jobId: string): Promise<SimPredictionView[]>;
  faults(faults: (FaultName | FaultSpec)[]): Promise<void>;
  /** A worker in a process of its own against this stack (env defaults to {@link env}). */
  spawnWorker(options?: Partial<SpawnWorkerOptions>): Promise<WorkerProcess>;
  /**
   * {@link spawnWorker}, resolved once its /readyz answers. Booting from sources can take most of a
   * minute on a starved machine; waiting here gives the boot a hang guard of its own, so a later
   * wait for a job measures the job.
   */
  spawnReadyWorker(options?: Partial<SpawnWorkerOptions>): Promise<WorkerProcess>;
  /**
   * Stops every in-process worker still running and kills every spawned one (call in afterEach so
   * a failed test cannot leak one).
   */
  stopWorkers(): Promise<void>;
  /**
   * Resolves with the job's status once it is one of `statuses`. On a hang the error describes the
   * job, its attempts, predictions, queue message and the worker log lines that name it: from the
   * in-process workers this stack started, or from `logs` for a test that gives its worker a
   * logger of its own.
   */
  waitForStatus(jobId: string, statuses: JobStatus[], options?: { timeoutMs?: number; logs?: () => string }): Promise<JobStatus>;
  close(): Promise<void>;
}

let photoCache: Promise<Buffer> | null = null;

/** A small real JPEG, 3:2, with structure so the simulator's output is a real photo derivative. */
export function testPhoto(): Promise<Buffer> {
  photoCache ??= makeTestPhoto({ width: 600, height: 400 });
  return photoCache;
}

/**
 * How long a wait for an event may take before it counts as a hang. Generous on purpose: tests
 * wait for a row state, a log line or an exit, and a busy machine only makes that later, never
 * wrong (in the full suite on two cores at load average 22, a child worker took over 90 s to log
 * that it had started). It stays below the Jest test timeout so a hang names what it waited for.
 */
export const HANG_GUARD_MS = 240_000;
/** Enough to follow the last deliveries of a job without burying the message. */
const LOG_LINES_IN_HANG_MESSAGE = 40;

/** A prediction belongs to the attempt its callback URL names. */
export function isPredictionOf(prediction: SimPredictionView, attemptId: string): boolean {
  return prediction.webhook?.endsWith(`${STAGING_WEBHOOK_PATH_PREFIX}${attemptId}`) === true;
}

export async function waitUntil<T>(
  read: () => Promise<T | undefined | null | false>,
  options: { timeoutMs?: number; what?: string; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? HANG_GUARD_MS);
  for (;;) {
    const value = await read();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${options.what ?? 'condition'}`);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 50));
  }
}

export async function startTestStack(
  options: {
    simCompletionDelayMs?: number;
    simOutputFetchBaseUrl?: string;
    /** How the simulator shows its predictions and pages (default: strict, 100 a page, bound address in links). */
    sim?: Pick<ProviderSimulatorOptions, 'mode' | 'listPageSize' | 'linkHost' | 'clockOffsetMs'>;
  } = {},
): Promise<TestStack> {
  const stack = stackBuilder();
  // A migrated database of the stack's own, dropped on close: each stack is one deployment, so
  // test files run side by side without reading each other's ledger (the paid-start limiter
  // rebuilds its log from every attempt in the database, recovery's shield covers every CREATING
  // attempt, and the orphan pass judges the simulator's predictions against the whole ledger).
  const databaseUrl = (await stack.database()).url;
  const valkeyUrl = process.env.VALKEY_URL ?? 'redis://127.0.0.1:6379';
  const db = createDb(databaseUrl, { maxConnections: 12 });
  stack.defer(() => db.$disconnect());
  const redis = createRedis(valkeyUrl, { role: 'worker', connectionName: 'worker-test' });
  stack.defer(() => redis.quit());
  const suffix = uniqueQueueSuffix(`${process.env.QUEUE_SUFFIX ?? ''}-w`);
  const queueName = queueNames(suffix).staging;
  const queue = createStagingQueue(redis, suffix);
  stack.defer(() => queue.close());
  stack.defer(() => deleteKeysMatching(redis, `*${queueName}*`));
  const s3 = await stack.s3rver({ buckets: [BUCKET] });
  const storageEnv = s3rverEnv(s3.endpoint, BUCKET, 'S3RVER');
  const sim = await stack.simulator({
    token: TEST_TOKEN,
    webhookSigningSecret: TEST_SIGNING_SECRET,
    completionDelayMs: options.simCompletionDelayMs ?? 300,
    slowCompletionDelayMs: 2_500,
    webhookRetryDelaysMs: [200, 600],
    webhookTimeoutMs: 3_000,
    ...(options.simOutputFetchBaseUrl === undefined
      ? {}
      : { outputFetchBaseUrl: options.simOutputFetchBaseUrl }),
    ...options.sim,
  });
  stack.defer(async () => {
    sim.reset();
    await sim.settle();
  });
  const receiver = await startTestWebhookReceiver({ db, queue: () => queue, secret: TEST_SIGNING_SECRET });
  stack.defer(() => receiver.stop());
  const userHashSecret = randomBytes(32).toString('hex');
  const running = new Set<RunningWorker>();
  /** The log text of every in-process worker started, stopped ones included (for hang messages). */
  const workerLogs: (() => string)[] = [];
  const spawned: WorkerProcess[] = [];
  const spawnStackWorker = async (options: Partial<SpawnWorkerOptions> = {}): Promise<WorkerProcess> => {
    const child = await spawnWorker({ env: env(), ...options });
    spawned.push(child);
    return child;
  };
  const stopWorkers = async (): Promise<void> => {
    for (const worker of [...running]) await worker.stop();
    for (const child of spawned.splice(0)) await child.kill();
  };

  const env = (overrides: Record<string, string | undefined> = {}): Record<string, string> => {
    const base: Record<string, string | undefined> = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      DATABASE_URL: databaseUrl,
      VALKEY_URL: valkeyUrl,
      QUEUE_SUFFIX: suffix,
      AI_ROOM_STAGING_ENABLED: 'true',
      AI_STAGING_QUALITY: 'medium',
      AI_STAGING_ASPECT_RATIO: '3:2',
      AI_STAGING_OUTPUT_FORMAT: 'jpeg',
      AI_STAGING_OUTPUT_COMPRESSION: '92',
      AI_STAGING_CONCURRENCY: '4',
      AI_STAGING_RATE_LIMIT_PER_MINUTE: '100',
      AI_STAGING_RATE_LIMIT_WINDOW_MS: '60000',
      AI_STAGING_COST_MICROUSD_MEDIUM: '42000',
      AI_STAGING_PRICING_VERSION: 'test-2026-11',
      PROVIDER_API_TOKEN: TEST_TOKEN,
      PROVIDER_API_BASE_URL: sim.url,
      PROVIDER_WEBHOOK_BASE_URL: receiver.origin,
      // Every unknown create waits this out before it may be ruled out; long enough that no
      // simulated prediction of these tests (slow: 5 s) meets its deadline.
      PROVIDER_CANCEL_AFTER_SECONDS: '15',
      ALLOW_INSECURE_WEBHOOK_BASE_URL: 'true',
      AI_STAGING_USER_HASH_SECRET: userHashSecret,
      // A free port from the OS, so tests never collide with a running local stack (4100).
      PORT: '0',
      DELETION_OUTBOX_INTERVAL_MS: '500',
      ...storageEnv,
      ...overrides,
    };
    return Object.fromEntries(Object.entries(base).filter((e): e is [string, string] => e[1] !== undefined));
  };
  const config = (overrides: Record<string, string | undefined> = {}) => parseWorkerEnv(env(overrides));
  const storage = createObjectStorage(config().storage);
  stack.defer(() => storage.close());
  stack.defer(stopWorkers);

  const seed = async (
    count: number,
    photo?: Buffer,
    producer: Partial<ProducerValues> = {},
  ): Promise<SeededJob[]> => {
    const owner = await createUser(db);
    const property = await createProperty(db, { ownerAgentId: owner.id });
    const originals: Awaited<ReturnType<typeof createOriginalImage>>[] = [];
    for (let i = 0; i < count; i += 1) {
      const original = await createOriginalImage(db, { propertyId: property.id });
      await storage.putObject(original.objectKey, photo ?? (await testPhoto()), 'image/jpeg');
      originals.push(original);
    }
    const deps = producerDeps(
      { db, stagingQueue: queue, logger: memoryLogger().logger },
      {
        producer: {
          quality: 'medium',
          aspectRatio: '3:2',
          outputFormat: 'jpeg',
          outputCompression: 92,
          ...producer,
        },
      },
    );
    const items = await submitStaging(deps, {
      actor: { id: owner.id, role: 'AGENT' },
      assignments: originals.map((o) => ({
        originalImageId: o.id,
        roomType: 'LIVING_ROOM' as const,
        style: 'MODERN',
      })),
    });
    return items.map((item, i) => {
      if (item.disposition !== STAGING_DISPOSITIONS.ENQUEUED || item.aiJobId === null)
        throw new Error(`seed submission not enqueued: ${JSON.stringify(item)}`);
      const original = originals[i]!;
      return {
        jobId: item.aiJobId,
        propertyId: property.id,
        originalImageId: original.id,
        originalKey: original.objectKey,
        userId: owner.id,
      };
    });
  };

  /**
   * For a hang's message: the job, its attempts and their predictions (fault drawn, callbacks), its
   * queue message, and the last worker log lines that name the job or one of its attempts.
   */
  const describeJob = async (jobId: string, logText: string): Promise<string> => {
    const job = await db.aiJob.findUnique({
      where: { id: jobId },
      select: { status: true, errorCode: true, updatedAt: true, heartbeatAt: true },
    });
    const attempts = await db.aiProviderAttempt.findMany({
      where: { aiJobId: jobId },
      orderBy: { attemptNumber: 'asc' },
      select: { id: true, attemptNumber: true, status: true, errorCode: true, creatingAt: true, endedAt: true },
    });
    const sims = await predictions();
    const lines = attempts.map((attempt) => {
      const prediction = sims.find((p) => isPredictionOf(p, attempt.id));
      const callbacks = prediction?.deliveries.map((d) => `${d.event}:${d.responseStatus ?? d.error}`).join(',');
      return `  attempt ${attempt.attemptNumber} ${JSON.stringify(attempt)}; prediction ${
        prediction === undefined ? 'none' : `${prediction.status}, fault ${prediction.fault?.name ?? 'none'}, callbacks [${callbacks}]`
      }`;
    });
    const ids = [jobId, ...attempts.map((attempt) => attempt.id)];
    const logLines = logText.split('\n').filter((line) => ids.some((id) => line.includes(id)));
    return [
      `job ${JSON.stringify(job)}; now ${new Date().toISOString()}`,
      ...lines,
      `  queue message ${await describeQueueMessage(jobId)}`,
      `  worker log lines naming it (last ${Math.min(logLines.length, LOG_LINES_IN_HANG_MESSAGE)} of ${logLines.length}):`,
      ...logLines.slice(-LOG_LINES_IN_HANG_MESSAGE).map((line) => `    ${line.slice(0, 400)}`),
    ].join('\n');
  };

  /** The queue message's state, delivery count and times, and whether a worker holds its lock. */
  const describeQueueMessage = async (jobId: string): Promise<string> => {
    const message = await queue.getJob(jobId);
    if (message === undefined) return 'missing';
    const lockTtlMs = await redis.pttl(`${message.queueQualifiedName}:${jobId}:lock`);
    return JSON.stringify({
      state: await message.getState(),
      attemptsMade: message.attemptsMade,
      delayMs: message.delay,
      timestamp: new Date(message.timestamp).toISOString(),
      processedOn: message.processedOn === undefined ? null : new Date(message.processedOn).toISOString(),
      finishedOn: message.finishedOn === undefined ? null : new Date(message.finishedOn).toISOString(),
      lockTtlMs,
    });
  };

  const predictions = async (): Promise<SimPredictionView[]> => {
    const response = await fetch(`${sim.origin}/__sim/predictions`);
    return ((await response.json()) as { predictions: SimPredictionView[] }).predictions;
  };

  return {
    db,
    redis,
    suffix,
    queueName,
    queue,
    storage,
    s3,
    sim,
    receiver,
    env,
    config,
    async startWorker(options = {}) {
      const log = memoryLogger();
      workerLogs.push(log.text);
      const app = await createWorkerApp(config(options.env), {
        logger: log.logger,
        captureAlert: (alert) => log.logger.error({ event: 'alert', ...alert.tags }, alert.message),
        consumer: { lockDurationMs: 5_000, stalledIntervalMs: 2_000 },
        repairIntervalMs: 1_000,
        shutdownGraceMs: 5_000,
        deletionOutbox: { retryBaseMs: 100, maxAttempts: 3 },
        http: false,
        ...options.overrides,
        // Timing overrides adjust the fast test timings; they never fall back to production ones.
        timings: { ...FAST_TIMINGS, ...options.overrides?.timings },
      });
      const worker: RunningWorker = {
        app,
        log,
        async stop() {
          running.delete(worker);
          await app.stop();
        },
      };
      running.add(worker);
      return worker;
    },
    async seedJob(seedOptions = {}) {
      const [job] = await seed(1, seedOptions.photo);
      return job!;
    },
    seedJobs: (count, options = {}) => seed(count, options.photo, options.producer),
    predictions,
    async purchasesFor(jobId) {
      const attempts = await db.aiProviderAttempt.findMany({
        where: { aiJobId: jobId },
        select: { id: true },
      });
      return (await predictions()).filter((p) => attempts.some((a) => isPredictionOf(p, a.id)));
    },
    spawnWorker: spawnStackWorker,
    async spawnReadyWorker(options = {}) {
      const child = await spawnStackWorker(options);
      await child.ready();
      return child;
    },
    stopWorkers,
    async faults(list) {
      const response = await fetch(`${sim.origin}/__sim/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(list),
      });
      if (!response.ok) throw new Error(`scripting faults failed: HTTP ${response.status}`);
    },
    async waitForStatus(jobId, statuses, options = {}) {
      try {
        return await waitUntil(
          async () => {
            const job = await db.aiJob.findUnique({ where: { id: jobId }, select: { status: true } });
            return job !== null && statuses.includes(job.status) ? job.status : undefined;
          },
          { timeoutMs: options.timeoutMs ?? HANG_GUARD_MS, what: `job ${jobId} to reach ${statuses.join('/')}` },
        );
      } catch (error) {
        // A hang on a busy machine is rare and not reproducible at will: say where the job stood.
        const logs = options.logs ?? (() => workerLogs.map((text) => text()).join('\n'));
        throw new Error(`${(error as Error).message}\n${await describeJob(jobId, logs())}`, { cause: error });
      }
    },
    close: stack.stop,
  };
}

export interface AiQueueTestContext {
  stack: TestStack;
  /** The producer side of the stack's ai queue (descriptions and legacy bridge messages). */
  aiQueue: AiQueue;
}

/**
 * Registers the lifecycle of a file that feeds the worker's ai queue: one stack and one ai queue
 * per file. Read the fields inside tests.
 */
export function useAiQueueTestStack(): AiQueueTestContext {
  const ctx = {} as AiQueueTestContext;
  beforeAll(async () => {
    ctx.stack = await startTestStack();
    ctx.aiQueue = createAiQueue(ctx.stack.redis, ctx.stack.suffix);
  });
  afterAll(async () => {
    // The stack's close removes only the staging queue's keys, so the ai queue empties itself.
    await ctx.aiQueue.obliterate({ force: true });
    await ctx.aiQueue.close();
    await ctx.stack.close();
  });
  return ctx;
}
