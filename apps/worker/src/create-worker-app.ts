import type { WorkerConfig } from '@staging/config/worker';
import type { Db } from '@staging/db/client';
import type { Alert } from '@staging/platform/error-tracker';
import type { Logger } from '@staging/platform/logger';
import { createPriorityGate } from '@staging/platform/priority-gate';
import type { PriorityGate } from '@staging/platform/priority-gate';
import type { ObjectStorage } from '@staging/platform/storage';
import type { ProviderClient } from '@staging/provider/provider-client';
import type { DescriptionGenerator } from '@staging/services/description/description-generator';
import type { DeletionOutboxOptions } from '@staging/services/outbox/process-deletion-outbox';
import type { StagingQueue } from '@staging/services/staging/staging-queue';
import { startStagingConsumer } from './staging/staging-consumer';
import type { StagingConsumer } from './staging/staging-consumer';
import type { StagingTimings, StepBoundary } from './staging/staging-deps';
import { stripUndefined } from './strip-undefined';
import { startWorkerHealthServer } from './worker-health';
import { startMaintenanceLoops } from './worker-loops';
import { startOperations } from './worker-operations';
import { openWorkerResources } from './worker-resources';
import { shutDownWorker } from './worker-shutdown';
import { buildStagingDeps } from './worker-staging-deps';

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

const DEFAULT_SHUTDOWN_GRACE_MS = 25_000;
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
  const resources = openWorkerResources(config, overrides);
  const { logger, names, queue } = resources;
  // Descriptions and staging share this process's event loop; descriptions go first.
  const priority = createPriorityGate({ maxWaitMs: overrides.stagingYieldMaxMs ?? STAGING_YIELD_MAX_MS });
  const deps = buildStagingDeps(config, resources, { priority, boundary: overrides.boundary, timings: overrides.timings });

  const consumer = startStagingConsumer(deps, {
    queueName: names.staging,
    connection: resources.redis,
    concurrency: config.stagingConcurrency,
    ...stripUndefined(overrides.consumer ?? {}),
  });
  const loops = await startMaintenanceLoops(config, resources, { repairIntervalMs: overrides.repairIntervalMs, deletionOutbox: overrides.deletionOutbox });
  const operations = startOperations(config, resources, {
    priority,
    injectedDb: overrides.db,
    descriptionGenerator: overrides.descriptionGenerator,
  });

  let accepting = true;
  const http =
    overrides.http === false
      ? null
      : await startWorkerHealthServer(config, resources, {
          dashboardQueues: operations.dashboardQueues,
          isAccepting: () => accepting && consumer.worker.isRunning(),
        });
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
    runDispatcher: () => loops.dispatcher.runNow(),
    runDeletionOutbox: () => loops.outbox.runNow(),
    runOrphanPredictions: () => loops.orphans.runNow(),
    stop() {
      stopping ??= (async () => {
        accepting = false;
        return shutDownWorker(resources, {
          consumer,
          graceMs: overrides.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS,
          loops,
          operations,
          http,
          ownsStorage: overrides.storage === undefined,
          ownsDb: overrides.db === undefined,
        });
      })();
      return stopping;
    },
  };
}
