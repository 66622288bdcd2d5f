import type { WorkerConfig } from '@staging/config/worker';
import { createDb } from '@staging/db/client';
import type { Db } from '@staging/db/client';
import { captureAlert as platformCaptureAlert } from '@staging/platform/error-tracker';
import type { Alert } from '@staging/platform/error-tracker';
import { createLogger } from '@staging/platform/logger';
import type { Logger } from '@staging/platform/logger';
import { createRedis, queueNames } from '@staging/platform/queues';
import type { QueueNames } from '@staging/platform/queues';
import { createObjectStorage } from '@staging/platform/storage';
import type { ObjectStorage } from '@staging/platform/storage';
import type { ProviderClient } from '@staging/provider/provider-client';
import { createProviderClock } from '@staging/services/staging/provider-clock';
import type { ProviderClock } from '@staging/services/staging/provider-clock';
import { createStagingQueue } from '@staging/services/staging/staging-queue';
import type { StagingQueue } from '@staging/services/staging/staging-queue';
import type { Redis } from 'ioredis';
import { createWorkerProvider } from './worker-provider';

/** The connections and clients every part of the worker shares. */
export interface WorkerResources {
  logger: Logger;
  captureAlert: (alert: Alert) => void;
  db: Db;
  redis: Redis;
  storage: ObjectStorage;
  names: QueueNames;
  providerClock: ProviderClock;
  provider: ProviderClient;
  queue: StagingQueue;
}

/** Opens the worker's shared resources from config, or takes the ones a test injects. */
export function openWorkerResources(
  config: WorkerConfig,
  injected: { logger?: Logger; captureAlert?: (alert: Alert) => void; db?: Db; storage?: ObjectStorage; provider?: ProviderClient },
): WorkerResources {
  const logger = injected.logger ?? createLogger({ service: 'worker', level: config.logLevel });
  const captureAlert = injected.captureAlert ?? platformCaptureAlert;
  const db = injected.db ?? createDb(config.databaseUrl, { maxConnections: config.stagingConcurrency * 2 + 6 });
  const redis = createRedis(config.valkeyUrl, {
    role: 'worker',
    connectionName: 'worker',
    onError: (error) => logger.warn({ err: error }, 'redis connection error; reconnecting'),
  });
  const storage = injected.storage ?? createObjectStorage(config.storage);
  const names = queueNames(config.queueSuffix);
  const providerClock = createProviderClock(redis, config.queueSuffix);
  const provider = createWorkerProvider(config, { injected: injected.provider, redis, names, providerClock, logger });
  const queue = createStagingQueue(redis, config.queueSuffix);
  return { logger, captureAlert, db, redis, storage, names, providerClock, provider, queue };
}
