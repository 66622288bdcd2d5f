import type { Redis } from 'ioredis';
import type { Db } from '@staging/db/client';
import type { Alert } from '@staging/platform/error-tracker';
import type { Logger } from '@staging/platform/logger';
import { createRedisAlertDedupe, runStaleJobAlertPass } from '@staging/services/alerts/stale-jobs';
import { startIntervalLoop } from '@staging/platform/interval-loop';
import type { IntervalLoop } from '@staging/platform/interval-loop';
import { withTimeout } from '@staging/platform/timeout';

/** Checked as often as the outbox loop runs; the shortest threshold is two minutes. */
export const STALE_ALERT_INTERVAL_MS = 30_000;
/**
 * Longest one pass may take. The worker's Redis connection waits out outages (BullMQ needs that),
 * so a pass during one would otherwise hold the loop, and a shutdown, until Redis returns.
 */
const PASS_TIMEOUT_MS = 10_000;

/**
 * Periodic stale-job alerts (docs/system.md 8). Every replica runs the pass; the Redis dedupe makes one
 * of them raise each finding, once per staleness episode and then once a day while unresolved.
 */
export function startStaleJobAlerts(deps: {
  db: Db;
  redis: Redis;
  queueSuffix: string;
  stagingEnabled: boolean;
  logger: Logger;
  captureAlert: (alert: Alert) => void;
  intervalMs?: number;
  now?: () => Date;
}): IntervalLoop {
  const dedupe = createRedisAlertDedupe(deps.redis, { queueSuffix: deps.queueSuffix });
  return startIntervalLoop({
    name: 'stale-job-alerts',
    intervalMs: deps.intervalMs ?? STALE_ALERT_INTERVAL_MS,
    logger: deps.logger,
    pass: async () => {
      const pass = runStaleJobAlertPass({
        db: deps.db,
        dedupe,
        captureAlert: deps.captureAlert,
        logger: deps.logger,
        now: deps.now ?? (() => new Date()),
        stagingEnabled: deps.stagingEnabled,
      });
      try {
        await withTimeout(pass, PASS_TIMEOUT_MS, `stale-job pass took longer than ${PASS_TIMEOUT_MS} ms`);
      } finally {
        pass.catch(() => undefined);
      }
    },
  });
}
