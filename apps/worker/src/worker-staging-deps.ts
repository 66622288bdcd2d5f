import type { WorkerConfig } from '@staging/config/worker';
import type { PriorityGate } from '@staging/platform/priority-gate';
import { loadRecordedStarts } from '@staging/services/staging/ledger/staging-job-reads';
import { createPaidStartLimiter, paidStartLimiterKey } from '@staging/services/staging/paid-start-limiter';
import { wakeStagingJob } from '@staging/services/staging/staging-queue';
import { createOutputSlots } from './staging/output-slots';
import { DEFAULT_STAGING_TIMINGS } from './staging/staging-deps';
import type { StagingDeps, StagingTimings, StepBoundary } from './staging/staging-deps';
import { createStagingLog } from './staging/staging-log';
import { stripUndefined } from './strip-undefined';
import type { WorkerResources } from './worker-resources';

/**
 * Provider outputs validated and stored at once per process (memory bound, see output-slots).
 * One: a slot handles several outputs a second, far above any paid-start rate, and a second slot
 * only let staging take both cores of a small host from the descriptions sharing this process
 * (docs/decisions/staging.md "What a staging job costs the worker").
 */
const OUTPUT_SLOTS = 1;
// The provider client's request timeout (30 s) plus a margin.
const IN_FLIGHT_HOLD_MS = 35_000;

/** What every staging step is handed: the stores, the paid-start line, and the settings from config. */
export function buildStagingDeps(
  config: WorkerConfig,
  { db, redis, names, queue, provider, storage, providerClock, logger, captureAlert }: WorkerResources,
  options: {
    priority: PriorityGate;
    boundary: ((name: StepBoundary, jobId: string) => Promise<void>) | undefined;
    timings: Partial<StagingTimings> | undefined;
  },
): StagingDeps {
  const timings: StagingTimings = { ...DEFAULT_STAGING_TIMINGS, ...stripUndefined(options.timings ?? {}) };
  return {
    db,
    provider,
    storage,
    limiter: createPaidStartLimiter({
      redis,
      key: paidStartLimiterKey(names.staging),
      limit: config.paidStartLimitPerMinute,
      windowMs: config.paidStartLimitWindowMs,
      inFlightHoldMs: IN_FLIGHT_HOLD_MS,
      loadRecordedStarts: (sinceMs) => loadRecordedStarts(db, sinceMs, IN_FLIGHT_HOLD_MS),
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
    boundary: options.boundary ?? (async () => undefined),
    backgroundTurn: () => options.priority.backgroundTurn(),
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
