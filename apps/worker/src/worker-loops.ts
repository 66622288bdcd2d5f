import type { WorkerConfig } from '@staging/config/worker';
import { startIntervalLoop } from '@staging/platform/interval-loop';
import type { IntervalLoop } from '@staging/platform/interval-loop';
import { objectUrlPrefixOf } from '@staging/provider/orphan-predictions';
import type { DeletionOutboxOptions } from '@staging/services/outbox/process-deletion-outbox';
import { runDeletionOutboxPass } from './loops/deletion-outbox-loop';
import { runDispatcherPass } from './loops/dispatcher-loop';
import { orphanPassLockKey, orphanWindowMs, runOrphanPredictionPass } from './loops/orphan-prediction-loop';
import type { WorkerResources } from './worker-resources';

const DEFAULT_REPAIR_INTERVAL_MS = 60_000;
/** A key presigned only to learn the storage's URL prefix (a local computation, no request). */
const OBJECT_URL_PROBE_KEY = 'orphan-check-probe';

export interface MaintenanceLoops {
  dispatcher: IntervalLoop;
  outbox: IntervalLoop;
  orphans: IntervalLoop;
}

/**
 * The periodic passes: the dispatcher/repair of the staging queue (also run at once after a
 * Redis reconnect), the deletion outbox, and the reconciliation of the provider's recent
 * predictions with the ledger.
 */
export async function startMaintenanceLoops(
  config: WorkerConfig,
  { db, redis, names, queue, provider, storage, providerClock, logger, captureAlert }: WorkerResources,
  { repairIntervalMs, deletionOutbox }: { repairIntervalMs: number | undefined; deletionOutbox: Partial<DeletionOutboxOptions> | undefined },
): Promise<MaintenanceLoops> {
  const dispatcher: IntervalLoop = startIntervalLoop({
    name: 'staging-dispatcher',
    intervalMs: repairIntervalMs ?? DEFAULT_REPAIR_INTERVAL_MS,
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
    pass: () => runDeletionOutboxPass({ db, storage, logger, captureAlert, ...(deletionOutbox === undefined ? {} : { options: deletionOutbox }) }),
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
  return { dispatcher, outbox, orphans };
}
