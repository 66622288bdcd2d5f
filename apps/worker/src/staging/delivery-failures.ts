import { wait } from './staging-deps';
import type { RunOutcome, StagingDeps } from './staging-deps';

/** Consecutive unexpected failures after which an alert is raised (each one is logged). */
const ALERT_AFTER_FAILURES = 5;
const MAX_ERROR_BACKOFF_MS = 60_000;

/**
 * Unexpected delivery failures counted per job: each is logged and answered with a wait that
 * doubles up to a minute, the fifth in a row raises an alert, and a delivery that ends normally
 * starts the count again.
 */
export function createDeliveryFailures(deps: Pick<StagingDeps, 'logger' | 'captureAlert' | 'settings'>) {
  const failures = new Map<string, number>();
  const { timings } = deps.settings;
  return {
    cleared: (jobId: string) => {
      failures.delete(jobId);
    },
    failed: (jobId: string, error: unknown): RunOutcome => {
      const count = (failures.get(jobId) ?? 0) + 1;
      failures.set(jobId, count);
      deps.logger.error(
        { jobId, err: error, consecutiveFailures: count },
        'staging delivery failed unexpectedly; re-delivering later',
      );
      if (count === ALERT_AFTER_FAILURES) {
        deps.captureAlert({
          message: 'staging job keeps failing unexpectedly',
          level: 'error',
          tags: { jobId, errorCode: 'WORKER_ERROR' },
        });
      }
      return wait(
        Math.min(timings.transientBackoffMs * 2 ** Math.min(count - 1, 6), MAX_ERROR_BACKOFF_MS),
        'unexpected-error',
      );
    },
  };
}
