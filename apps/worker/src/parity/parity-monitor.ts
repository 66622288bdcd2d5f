import type { Redis } from 'ioredis';
import { producerValuesFingerprint } from '@staging/config/producer-values';
import type { ProducerValues } from '@staging/config/producer-values';
import type { Alert } from '@staging/platform/error-tracker';
import type { Logger } from '@staging/platform/logger';
import {
  defaultInstanceId,
  findParityMismatches,
  listLiveProducerFingerprints,
  startProducerFingerprintPublisher,
} from '@staging/services/parity/producer-parity';
import { startIntervalLoop } from '@staging/platform/interval-loop';
import type { IntervalLoop } from '@staging/platform/interval-loop';
import { withTimeout } from '@staging/platform/timeout';

export const PARITY_CHECK_INTERVAL_MS = 60_000;
/** A comparison waits no longer for Redis than this (the worker connection waits out outages). */
const CHECK_TIMEOUT_MS = 10_000;

/** `runNow()` compares once now (tests, boot); `stop()` also withdraws the published fingerprint. */
export type ParityMonitor = IntervalLoop;

/**
 * Publishes the worker's producer fingerprint and compares every live producer (web, api, other
 * workers) with it. While the legacy bridge exists a difference means legacy messages become jobs
 * with other provider inputs than direct submissions (docs/system.md 2.9), so each differing instance
 * raises one alert (and logs `producer_parity.mismatch`) until it matches again.
 */
export function startParityMonitor(deps: {
  redis: Redis;
  values: ProducerValues;
  queueSuffix: string;
  logger: Logger;
  captureAlert: (alert: Alert) => void;
  instanceId?: string;
  intervalMs?: number;
  publishIntervalMs?: number;
}): ParityMonitor {
  const instanceId = deps.instanceId ?? defaultInstanceId();
  const own = producerValuesFingerprint(deps.values);
  const publisher: IntervalLoop = startProducerFingerprintPublisher({
    redis: deps.redis,
    role: 'worker',
    values: deps.values,
    queueSuffix: deps.queueSuffix,
    logger: deps.logger,
    instanceId,
    ...(deps.publishIntervalMs === undefined ? {} : { intervalMs: deps.publishIntervalMs }),
  });
  const alerted = new Set<string>();

  const check = async (): Promise<void> => {
    const listing = listLiveProducerFingerprints(deps.redis, deps.queueSuffix);
    listing.catch(() => undefined);
    const live = await withTimeout(listing, CHECK_TIMEOUT_MS, `producer fingerprints not readable within ${CHECK_TIMEOUT_MS} ms`);
    const mismatches = findParityMismatches(own, live);
    const current = new Set<string>();
    for (const entry of mismatches) {
      const key = `${entry.role}:${entry.instanceId}:${entry.fingerprint}`;
      current.add(key);
      if (alerted.has(key)) continue;
      alerted.add(key);
      const fields = {
        role: entry.role,
        instanceId: entry.instanceId,
        fingerprint: entry.fingerprint,
        workerFingerprint: own,
      };
      deps.logger.error(
        { event: 'producer_parity.mismatch', ...fields, values: entry.values, workerValues: deps.values },
        'producer_parity.mismatch',
      );
      deps.captureAlert({
        message: 'producer values differ from the worker while the legacy bridge exists',
        level: 'error',
        tags: {
          errorCode: 'PRODUCER_PARITY_MISMATCH',
          producerRole: entry.role,
          producerInstance: entry.instanceId,
          fingerprint: entry.fingerprint,
          workerFingerprint: own,
        },
        extra: { values: entry.values, workerValues: deps.values },
      });
    }
    for (const key of [...alerted]) {
      if (current.has(key)) continue;
      alerted.delete(key);
      deps.logger.info({ event: 'producer_parity.restored', instance: key }, 'producer_parity.restored');
    }
  };

  const loop: IntervalLoop = startIntervalLoop({
    name: 'producer-parity',
    intervalMs: deps.intervalMs ?? PARITY_CHECK_INTERVAL_MS,
    logger: deps.logger,
    pass: check,
  });
  return {
    runNow: () => loop.runNow(),
    async stop() {
      await loop.stop();
      await publisher.stop();
    },
  };
}
