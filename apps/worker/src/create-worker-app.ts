import type { WorkerConfig } from '@staging/config/worker';
import { createDb } from '@staging/db/client';
import type { Db } from '@staging/db/client';
import { captureAlert as platformCaptureAlert } from '@staging/platform/error-tracker';
import type { Alert } from '@staging/platform/error-tracker';
import { createLogger } from '@staging/platform/logger';
import type { Logger } from '@staging/platform/logger';
import { createRedis, onOwnErrors, queueNames } from '@staging/platform/queues';
import { createObjectStorage } from '@staging/platform/storage';
import type { ObjectStorage } from '@staging/platform/storage';
import { createProviderClient } from '@staging/provider/provider-client';
import type { ProviderClient } from '@staging/provider/provider-client';
import { createSearchIndexingWorker } from '@staging/services/search/search-queue';
import { createStagingQueue, wakeStagingJob } from '@staging/services/staging/staging-queue';
import type { StagingQueue } from '@staging/services/staging/staging-queue';
import type { DeletionOutboxOptions } from '@staging/services/outbox/process-deletion-outbox';
import type { DescriptionGenerator } from '@staging/services/description/description-generator';
import { startHealthServer } from './http/health-server';
import type { HealthServer } from './http/health-server';
import { startIntervalLoop } from '@staging/platform/interval-loop';
import type { IntervalLoop } from '@staging/platform/interval-loop';
import { createPriorityGate } from '@staging/platform/priority-gate';
import type { PriorityGate } from '@staging/platform/priority-gate';
import { runDeletionOutboxPass } from './loops/deletion-outbox-loop';
import { runDispatcherPass } from './loops/dispatcher-loop';
import { orphanPassLockKey, orphanWindowMs, runOrphanPredictionPass } from './loops/orphan-prediction-loop';
import { objectUrlPrefixOf } from '@staging/provider/orphan-predictions';
import { createOutputSlots } from './staging/output-slots';
import { loadRecordedStarts } from '@staging/services/staging/ledger/staging-job-reads';
import { createPaidStartLimiter, paidStartLimiterKey } from '@staging/services/staging/paid-start-limiter';
import { createProviderClock } from '@staging/services/staging/provider-clock';
import { measureFromResponseDates } from './staging/provider-clock-measure';
import { createReadBudget, readBudgetKey, withReadBudget } from './staging/provider-read-budget';
import { DEFAULT_STAGING_TIMINGS } from './staging/staging-deps';
import type { StagingDeps, StagingTimings, StepBoundary } from './staging/staging-deps';
import { startStagingConsumer } from './staging/staging-consumer';
import type { StagingConsumer } from './staging/staging-consumer';
import { createStagingLog } from './staging/staging-log';
import { startStaleJobAlerts } from './alerts/stale-job-alerts';
import { logDashboardState, openDashboardQueues } from './dashboard/dashboard-queues';
import { createDashboardRouter } from './dashboard/dashboard-router';
import { startAiQueueConsumer } from './description/ai-queue-consumer';
import { startParityMonitor } from './parity/parity-monitor';

/** Everything a test (or main.ts) may inject; each has a production default built from config. */
export interface WorkerAppOverrides {
  logger?: Logger;
  db?: Db;
  provider?: ProviderClient;
  storage?: ObjectStorage;
  captureAlert?: (alert: Alert) => void;
  boundary?: (name: StepBoundary, jobId: string) => Promise<void>;
  timings?: Partial<StagingTimings>;
  consumer?: { lockDurationMs?: number | undefined; stalledIntervalMs?: number | undefined };
  /** Dispatcher/repair period; default 60 s. */
  repairIntervalMs?: number | undefined;
  /** Upper bound of a graceful stop; default 25 s (inside a typical 30 s SIGTERM budget). */
  shutdownGraceMs?: number | undefined;
  /** Deletion-outbox batch options (retry base, attempts); production defaults otherwise. */
  deletionOutbox?: Partial<DeletionOutboxOptions>;
  /** False skips the HTTP server (most in-process tests). */
  http?: boolean;
  /** Writes the descriptions; the template generator by default. */
  descriptionGenerator?: DescriptionGenerator;
  /** Longest a staging step holds back for descriptions in flight; default STAGING_YIELD_MAX_MS. */
  stagingYieldMaxMs?: number | undefined;
}

export interface WorkerApp {
  queue: StagingQueue;
  consumer: StagingConsumer;
  /** Descriptions' precedence over staging steps in this process (tests look at it). */
  priority: PriorityGate;
  /** Bound HTTP port, or null without a server. */
  port: number | null;
  /** One dispatcher pass now (repair + wake of parked jobs). */
  runDispatcher(): Promise<void>;
  /** One deletion-outbox pass now. */
  runDeletionOutbox(): Promise<void>;
  /** One reconciliation of the provider's recent predictions with the ledger now. */
  runOrphanPredictions(): Promise<void>;
  /** Graceful stop: no new jobs, active ones finish or park, connections close. */
  stop(): Promise<{ drained: boolean }>;
}

const DEFAULT_REPAIR_INTERVAL_MS = 60_000;
const DEFAULT_SHUTDOWN_GRACE_MS = 25_000;
/** A key presigned only to learn the storage's URL prefix (a local computation, no request). */
const OBJECT_URL_PROBE_KEY = 'orphan-check-probe';
const CLOSE_STEP_TIMEOUT_MS = 3_000;
/**
 * Provider outputs validated and stored at once per process (memory bound, see output-slots).
 * One: a slot handles several outputs a second, far above any paid-start rate, and a second slot
 * only let staging take both cores of a small host from the descriptions sharing this process
 * (docs/decisions/staging.md "What a staging job costs the worker").
 */
const OUTPUT_SLOTS = 1;
/**
 * Longest a staging step waits for descriptions in flight. A description takes tens of
 * milliseconds; a staging job waits seconds to minutes for the provider, so holding its next step
 * back this long is invisible to it, and a steady stream of descriptions cannot stall it.
 */
const STAGING_YIELD_MAX_MS = 100;

/**
 * Starts the worker from a parsed config: the staging consumer, the deletion-outbox loop, the
 * dispatcher/repair loop, the orphan-prediction reconciliation and the health server. main.ts calls it with production defaults; tests
 * start workers in-process with injected timings and hooks.
 */
export async function createWorkerApp(config: WorkerConfig, overrides: WorkerAppOverrides = {}): Promise<WorkerApp> {
  const logger = overrides.logger ?? createLogger({ service: 'worker', level: config.logLevel });
  const captureAlert = overrides.captureAlert ?? platformCaptureAlert;
  const ownsDb = overrides.db === undefined;
  const db = overrides.db ?? createDb(config.databaseUrl, { maxConnections: config.stagingConcurrency * 2 + 6 });
  const redis = createRedis(config.valkeyUrl, {
    role: 'worker',
    connectionName: 'worker',
    onError: (error) => logger.warn({ err: error }, 'redis connection error; reconnecting'),
  });
  const ownsStorage = overrides.storage === undefined;
  const storage = overrides.storage ?? createObjectStorage(config.storage);
  const names = queueNames(config.queueSuffix);
  const providerClock = createProviderClock(redis, config.queueSuffix);
  const provider = withReadBudget(
    overrides.provider ??
      createProviderClient({
        baseUrl: config.providerApiBaseUrl,
        token: config.providerApiToken,
        onResponseDate: measureFromResponseDates(providerClock, logger),
      }),
    createReadBudget({ redis, key: readBudgetKey(names.staging), limitPerMinute: config.providerReadLimitPerMinute }),
  );
  const queue = createStagingQueue(redis, config.queueSuffix);
  const timings: StagingTimings = { ...DEFAULT_STAGING_TIMINGS, ...stripUndefined(overrides.timings ?? {}) };
  // The provider client's request timeout (30 s) plus a margin.
  const inFlightHoldMs = 35_000;

  // Descriptions and staging share this process's event loop; descriptions go first.
  const priority = createPriorityGate({ maxWaitMs: overrides.stagingYieldMaxMs ?? STAGING_YIELD_MAX_MS });
  const deps: StagingDeps = {
    db,
    provider,
    storage,
    limiter: createPaidStartLimiter({
      redis,
      key: paidStartLimiterKey(names.staging),
      limit: config.paidStartLimitPerMinute,
      windowMs: config.paidStartLimitWindowMs,
      inFlightHoldMs,
      loadRecordedStarts: (sinceMs) => loadRecordedStarts(db, sinceMs, inFlightHoldMs),
      // A head left asleep only starts at the time it was given; never fail a purchase over it.
      wake: (jobId) =>
        wakeStagingJob(queue, jobId).then(
          () => undefined,
          (error: unknown) => logger.warn({ jobId, err: error }, 'could not wake the next job in the start line'),
        ),
    }),
    outputSlots: createOutputSlots(OUTPUT_SLOTS),
    stagingLog: createStagingLog(logger),
    logger,
    captureAlert,
    providerClock,
    callbackPathUp: (webhookUrl) => isCallbackOriginUp(new URL(webhookUrl).origin),
    boundary: overrides.boundary ?? (async () => undefined),
    backgroundTurn: () => priority.backgroundTurn(),
    settings: {
      stagingEnabled: config.stagingEnabled,
      dailyPurchaseCap: config.dailyPurchaseCap,
      webhookBaseUrl: config.webhookBaseUrl,
      cancelAfterSeconds: config.providerCancelAfterSeconds,
      userHashSecret: config.userHashSecret,
      costMicrousd: config.costMicrousd,
      pricingVersion: config.pricingVersion,
      timings,
    },
  };

  const consumer = startStagingConsumer(deps, {
    queueName: names.staging,
    connection: redis,
    concurrency: config.stagingConcurrency,
    ...stripUndefined(overrides.consumer ?? {}),
  });
  const dispatcher: IntervalLoop = startIntervalLoop({
    name: 'staging-dispatcher',
    intervalMs: overrides.repairIntervalMs ?? DEFAULT_REPAIR_INTERVAL_MS,
    logger,
    runAtStart: true,
    pass: () => runDispatcherPass({ db, queue, logger, stagingEnabled: config.stagingEnabled }),
  });
  // After a reconnect Redis may have come back empty (a restart without persistence): repair the
  // queue from the ledger at once instead of at the next tick. The first 'ready' is the boot's.
  let connectedBefore = false;
  redis.on('ready', () => {
    if (connectedBefore) {
      logger.info({ loop: 'staging-dispatcher' }, 'redis reconnected; repairing the staging queue now');
      void dispatcher.runNow();
    }
    connectedBefore = true;
  });
  const outbox: IntervalLoop = startIntervalLoop({
    name: 'deletion-outbox',
    intervalMs: config.deletionOutboxIntervalMs,
    logger,
    runAtStart: true,
    pass: () => runDeletionOutboxPass({ db, storage, logger, captureAlert, ...(overrides.deletionOutbox === undefined ? {} : { options: overrides.deletionOutbox }) }),
  });
  const orphanMarks = {
    objectUrlPrefix: objectUrlPrefixOf(await storage.presignGetUrl(OBJECT_URL_PROBE_KEY, 60), OBJECT_URL_PROBE_KEY),
    webhookOrigin: new URL(config.webhookBaseUrl).origin,
  };
  const orphans: IntervalLoop = startIntervalLoop({
    name: 'orphan-predictions',
    intervalMs: config.providerReconcileIntervalMs,
    logger,
    pass: async () => {
      await runOrphanPredictionPass({
        db,
        redis,
        provider,
        logger,
        captureAlert,
        providerClock,
        model: config.providerModel,
        marks: orphanMarks,
        windowMs: orphanWindowMs(config.providerCancelAfterSeconds),
        intervalMs: config.providerReconcileIntervalMs,
        lockKey: orphanPassLockKey(names.staging),
      });
    },
  });

  // Rebuilds psearch:property:<id> after every image change (api/web enqueue; docs/system.md 2.4).
  const searchIndexing = createSearchIndexingWorker({ db, redis, queueSuffix: config.queueSuffix, logger, captureAlert, connection: redis });
  onOwnErrors(searchIndexing, (error) => logger.warn({ err: error }, 'search-indexing worker error'));
  searchIndexing.on('failed', (job, error) =>
    logger.error({ err: error, queueJobId: job?.id, propertyId: job?.data.propertyId }, 'search document rebuild failed'),
  );

  // Operations: ai queue (descriptions + legacy bridge), stale-job alerts, producer parity, dashboard queues.
  const ai = startAiQueueConsumer(config, {
    logger,
    captureAlert,
    db: overrides.db,
    priority,
    ...(overrides.descriptionGenerator === undefined ? {} : { generator: overrides.descriptionGenerator }),
  });
  const staleAlerts = startStaleJobAlerts({ db, redis, queueSuffix: config.queueSuffix, stagingEnabled: config.stagingEnabled, logger, captureAlert });
  const parity = startParityMonitor({ redis, values: config.producer, queueSuffix: config.queueSuffix, logger, captureAlert });
  const dashboardQueues = openDashboardQueues({ redis, queueSuffix: config.queueSuffix, staging: queue, ai: ai.queue });
  logDashboardState(logger, config);

  let accepting = true;
  let http: HealthServer | null = null;
  if (overrides.http !== false) {
    http = await startHealthServer({
      port: config.port,
      logger,
      isAccepting: () => accepting && consumer.worker.isRunning(),
      readinessChecks: {
        database: async () => {
          await db.$queryRaw`SELECT 1`;
        },
        redis: async () => {
          await redis.ping();
        },
      },
      ...(config.dashboard === undefined
        ? {}
        : {
            dashboard: createDashboardRouter({
              config: config.dashboard,
              queues: dashboardQueues.queues,
              redis,
              queueSuffix: config.queueSuffix,
              logger,
            }),
          }),
    });
  }
  logger.info(
    { queue: names.staging, concurrency: config.stagingConcurrency, stagingEnabled: config.stagingEnabled, rateLimit: config.paidStartLimitPerMinute },
    'worker started',
  );

  let stopping: Promise<{ drained: boolean }> | null = null;
  return {
    queue,
    consumer,
    priority,
    port: http?.port ?? null,
    runDispatcher: () => dispatcher.runNow(),
    runDeletionOutbox: () => outbox.runNow(),
    runOrphanPredictions: () => orphans.runNow(),
    stop() {
      stopping ??= (async () => {
        accepting = false;
        const result = await consumer.stop(overrides.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS);
        // Every later step is bounded too: with Redis unreachable, commands wait for a reconnect
        // forever (maxRetriesPerRequest null), and a stop must still end.
        await settleWithin(Promise.all([dispatcher.stop(), outbox.stop(), orphans.stop()]), CLOSE_STEP_TIMEOUT_MS);
        await settleWithin(
          Promise.all([ai.stop(), staleAlerts.stop(), parity.stop(), dashboardQueues.close(), searchIndexing.close()]),
          CLOSE_STEP_TIMEOUT_MS,
        );
        await settleWithin(queue.close(), CLOSE_STEP_TIMEOUT_MS);
        await http?.close();
        if (!(await settleWithin(redis.quit(), CLOSE_STEP_TIMEOUT_MS))) redis.disconnect();
        if (ownsStorage) storage.close();
        if (ownsDb) await db.$disconnect();
        logger.info({ drained: result.drained }, 'worker stopped');
        return result;
      })();
      return stopping;
    },
  };
}

/** Waits for `promise` at most `ms`; true when it settled (fulfilled or rejected) in time. */
async function settleWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const settled = promise.then(
    () => true,
    () => true,
  );
  const timedOut = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([settled, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

function stripUndefined<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as { [K in keyof T]: Exclude<T[K], undefined> };
}

/**
 * The api's liveness answer on the origin the provider calls back: the origin of the callback URL
 * sent, which is PROVIDER_WEBHOOK_BASE_URL as it was then (webhook-url.ts), served by the api,
 * whose /healthz touches no dependency.
 */
async function isCallbackOriginUp(callbackOrigin: string): Promise<boolean> {
  try {
    const response = await fetch(`${callbackOrigin}/healthz`, { signal: AbortSignal.timeout(5_000), redirect: 'error' });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}
