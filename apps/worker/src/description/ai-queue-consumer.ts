import type { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { WorkerConfig } from '@staging/config/worker';
import { createDb } from '@staging/db/client';
import type { Db } from '@staging/db/client';
import type { Alert } from '@staging/platform/error-tracker';
import type { Logger } from '@staging/platform/logger';
import type { PriorityGate } from '@staging/platform/priority-gate';
import { createRedis, queueNames } from '@staging/platform/queues';
import { createAiQueue } from '@staging/services/description/ai-queue';
import type { AiQueue } from '@staging/services/description/ai-queue';
import { templateDescriptionGenerator } from '@staging/services/description/description-generator';
import type { DescriptionGenerator } from '@staging/services/description/description-generator';
import { repairDescriptionQueue } from '@staging/services/description/repair-description-queue';
import { systemClock } from '@staging/services/staging/staging-deps';
import type { Clock } from '@staging/services/staging/staging-deps';
import { createSearchQueue } from '@staging/services/search/search-queue';
import { createStagingQueue } from '@staging/services/staging/staging-queue';
import { startIntervalLoop } from '@staging/platform/interval-loop';
import { createDescriptionProcessor, createStageRoomProcessor } from './ai-queue-processors';
import { startAiQueueWorker } from './ai-queue-worker';

export interface AiQueueConsumerDeps {
  logger: Logger;
  captureAlert: (alert: Alert) => void;
  /** Shared pool (tests); by default the consumer opens its own small pool. */
  db?: Db | undefined;
  generator?: DescriptionGenerator;
  clock?: Clock;
  /** Period of the description repair pass; default 60 s. */
  repairIntervalMs?: number;
  /**
   * The process's priority gate: descriptions run as its urgent work, so the staging steps of
   * the same process hold back while one is in flight (an agent is waiting for it).
   */
  priority?: PriorityGate | undefined;
}

export interface AiQueueConsumer {
  worker: Worker;
  /** `ai<QUEUE_SUFFIX>`, for the dashboard and tests. */
  queue: AiQueue;
  stop(): Promise<void>;
}

const DEFAULT_REPAIR_INTERVAL_MS = 60_000;
const STOP_GRACE_MS = 5_000;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * The `ai<QUEUE_SUFFIX>` consumer: description jobs and the legacy stage-room bridge, with
 * AI_DESCRIPTION_CONCURRENCY. It shares nothing with the staging consumer that could make a
 * description wait behind staging work (docs/system.md 6): its own queue, its own BullMQ Worker and
 * concurrency slots, its own Redis connection (BullMQ's blocking reads are per connection) and, by
 * default, its own database pool.
 */
export function startAiQueueConsumer(config: WorkerConfig, deps: AiQueueConsumerDeps): AiQueueConsumer {
  const { logger } = deps;
  const clock = deps.clock ?? systemClock;
  const generator = deps.generator ?? templateDescriptionGenerator;
  const ownsDb = deps.db === undefined;
  const db = deps.db ?? createDb(config.databaseUrl, { maxConnections: config.descriptionConcurrency + 2 });
  const redis: Redis = createRedis(config.valkeyUrl, {
    role: 'worker',
    connectionName: 'worker-ai',
    onError: (error) =>
      logger.warn(
        { err: error, queue: queueNames(config.queueSuffix).ai },
        'ai queue redis error; reconnecting',
      ),
  });
  const queue = createAiQueue(redis, config.queueSuffix);
  const stagingQueue = createStagingQueue(redis, config.queueSuffix);
  const searchQueue = createSearchQueue(redis, config.queueSuffix);
  const legacyAliasSunsetAt = config.legacyAliasSunsetAt;
  if (legacyAliasSunsetAt === null) {
    logger.warn(
      { event: 'legacy_bridge.no_sunset' },
      'AI_STAGING_LEGACY_ALIAS_SUNSET_AT is not set on the worker: legacy messages with old style names are refused',
    );
  }

  const processDescription = createDescriptionProcessor({ db, generator, logger, clock, searchQueue, captureAlert: deps.captureAlert });
  const processStageRoom = createStageRoomProcessor({
    db,
    stagingQueue,
    logger,
    captureAlert: deps.captureAlert,
    clock,
    config,
    legacyAliasSunsetAt,
  });

  const worker = startAiQueueWorker(config, {
    queue,
    redis,
    logger,
    captureAlert: deps.captureAlert,
    priority: deps.priority,
    processDescription,
    processStageRoom,
  });

  const repair = startIntervalLoop({
    name: 'description-repair',
    intervalMs: deps.repairIntervalMs ?? DEFAULT_REPAIR_INTERVAL_MS,
    logger,
    runAtStart: true,
    pass: async () => {
      await repairDescriptionQueue({ db, aiQueue: queue, logger });
    },
  });
  logger.info(
    { queue: queue.name, concurrency: config.descriptionConcurrency },
    'ai queue consumer started (descriptions, legacy bridge)',
  );

  return {
    worker,
    queue,
    async stop() {
      // Every step is bounded: descriptions take milliseconds, so a step that does not finish
      // means Redis is unreachable, and a shutdown must not wait for it to come back.
      const bounded = (step: Promise<unknown>) =>
        Promise.race([step.catch(() => undefined), sleep(STOP_GRACE_MS)]);
      await bounded(repair.stop());
      await bounded(worker.close());
      await bounded(Promise.allSettled([queue.close(), stagingQueue.close()]));
      if (redis.status === 'ready') await bounded(redis.quit());
      redis.disconnect();
      if (ownsDb) await db.$disconnect();
    },
  };
}
