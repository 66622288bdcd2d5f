import type { WorkerConfig } from '@staging/config/worker';
import type { Db } from '@staging/db/client';
import type { PriorityGate } from '@staging/platform/priority-gate';
import { onOwnErrors } from '@staging/platform/queues';
import type { DescriptionGenerator } from '@staging/services/description/description-generator';
import { createSearchIndexingWorker } from '@staging/services/search/search-queue';
import { startStaleJobAlerts } from './alerts/stale-job-alerts';
import { logDashboardState, openDashboardQueues } from './dashboard/dashboard-queues';
import type { DashboardQueues } from './dashboard/dashboard-queues';
import { startAiQueueConsumer } from './description/ai-queue-consumer';
import { startParityMonitor } from './parity/parity-monitor';
import type { WorkerResources } from './worker-resources';

export interface WorkerOperations {
  dashboardQueues: DashboardQueues;
  /** Stops them all at once. */
  stop(): Promise<unknown>;
}

/**
 * Everything beside staging: the search-indexing consumer, the ai queue (descriptions + legacy
 * bridge), stale-job alerts, producer parity and the dashboard's queues.
 */
export function startOperations(
  config: WorkerConfig,
  { db, redis, queue, logger, captureAlert }: WorkerResources,
  {
    priority,
    injectedDb,
    descriptionGenerator,
  }: {
    priority: PriorityGate;
    /** The ai consumer opens its own pool unless a test hands it one. */
    injectedDb: Db | undefined;
    descriptionGenerator: DescriptionGenerator | undefined;
  },
): WorkerOperations {
  // Rebuilds psearch:property:<id> after every image change (api/web enqueue; docs/system.md 2.4).
  const searchIndexing = createSearchIndexingWorker({ db, redis, queueSuffix: config.queueSuffix, logger, captureAlert, connection: redis });
  onOwnErrors(searchIndexing, (error) => logger.warn({ err: error }, 'search-indexing worker error'));
  searchIndexing.on('failed', (job, error) =>
    logger.error({ err: error, queueJobId: job?.id, propertyId: job?.data.propertyId }, 'search document rebuild failed'),
  );

  const ai = startAiQueueConsumer(config, {
    logger,
    captureAlert,
    db: injectedDb,
    priority,
    ...(descriptionGenerator === undefined ? {} : { generator: descriptionGenerator }),
  });
  const staleAlerts = startStaleJobAlerts({ db, redis, queueSuffix: config.queueSuffix, stagingEnabled: config.stagingEnabled, logger, captureAlert });
  const parity = startParityMonitor({ redis, values: config.producer, queueSuffix: config.queueSuffix, logger, captureAlert });
  const dashboardQueues = openDashboardQueues({ redis, queueSuffix: config.queueSuffix, staging: queue, ai: ai.queue });
  logDashboardState(logger, config);

  return {
    dashboardQueues,
    stop: () => Promise.all([ai.stop(), staleAlerts.stop(), parity.stop(), dashboardQueues.close(), searchIndexing.close()]),
  };
}
