import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { WorkerConfig } from '@staging/config/worker';
import type { Logger } from '@staging/platform/logger';
import { createSearchQueue } from '@staging/services/search/search-queue';
import { DASHBOARD_PATH } from './dashboard-router';

export interface DashboardQueues {
  /** ai-staging, ai and search-indexing, in that order (the dashboard's tabs). */
  queues: Queue[];
  close(): Promise<void>;
}

/**
 * The queues the bull-board dashboard shows (docs/system.md 6 names all three). The staging and ai
 * queues are the consumers' own objects; search-indexing is opened here on the worker's
 * connection; the dashboard's retry/clean actions, when QUEUE_DASHBOARD_WRITES allows them, go through it.
 */
export function openDashboardQueues(options: {
  redis: Redis;
  queueSuffix: string;
  staging: Queue;
  ai: Queue;
}): DashboardQueues {
  const search = createSearchQueue(options.redis, options.queueSuffix);
  // Without a listener every Redis reconnect error is rethrown by the emitter and printed; the
  // shared connection's own onError already logs it once.
  search.on('error', () => undefined);
  return {
    queues: [options.staging, options.ai, search],
    close: () => search.close(),
  };
}

/**
 * docs/system.md 5.5: the dashboard is never exposed without both credentials. The health server mounts
 * it only when `config.dashboard` is set (the config holds it only with both variables); this
 * says which way it went, once, at boot.
 */
export function logDashboardState(logger: Logger, config: Pick<WorkerConfig, 'dashboard'>): void {
  if (config.dashboard !== undefined) {
    const { writesEnabled } = config.dashboard;
    logger.info(
      { event: 'queue_dashboard.mounted', path: DASHBOARD_PATH, writesEnabled },
      `queue dashboard mounted at ${DASHBOARD_PATH} (basic auth, ${writesEnabled ? 'writes enabled' : 'read-only'})`,
    );
    return;
  }
  logger.warn(
    { event: 'queue_dashboard.disabled' },
    'queue dashboard not mounted: QUEUE_DASHBOARD_USER and QUEUE_DASHBOARD_PASSWORD are both required',
  );
}
