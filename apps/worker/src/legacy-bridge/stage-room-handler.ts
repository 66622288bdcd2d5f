import { UnrecoverableError } from 'bullmq';
import type { Job } from 'bullmq';
import type { WorkerConfig } from '@staging/config/worker';
import type { Db } from '@staging/db/client';
import type { StagingDisposition } from '@staging/domain/dispositions';
import type { Alert } from '@staging/platform/error-tracker';
import type { Logger } from '@staging/platform/logger';
import { LEGACY_STAGE_ROOM_MESSAGE, materializeLegacyStagingMessage } from '@staging/services/bridge/legacy-stage-room';
import type { LegacyBridgeDeps, LegacyMaterialization } from '@staging/services/bridge/legacy-stage-room';
import { acceptMessage } from '@staging/services/queue-contract';
import type { Clock } from '@staging/services/staging/staging-deps';
import type { StagingQueue } from '@staging/services/staging/staging-queue';

/** While the kill switch is off a message waits this long between checks (no row is written). */
export const DISABLED_RECHECK_MS = 60_000;

export interface StageRoomHandlerDeps {
  db: Db;
  stagingQueue: StagingQueue;
  logger: Logger;
  captureAlert: (alert: Alert) => void;
  clock: Clock;
  config: Pick<WorkerConfig, 'stagingEnabled' | 'dailyPurchaseCap' | 'producer' | 'providerModel'>;
  legacyAliasSunsetAt: Date | null;
}

export type StageRoomResult =
  | { kind: 'materialized'; aiJobId: string | null; disposition: StagingDisposition }
  | { kind: 'deferred'; delayMs: number };

/**
 * Handles one `stage-room` delivery. Materializes it with the worker's own producer values
 * (docs/system.md 2.9, 9.3). A message that can never become a job (refused shape, retired alias,
 * no-furniture, unknown image or user) fails for good with UnrecoverableError and stays in the
 * failed set for inspection; database or queue errors are thrown for BullMQ to retry.
 */
export async function handleStageRoomMessage(
  deps: StageRoomHandlerDeps,
  job: Pick<Job, 'id' | 'name' | 'data'>,
): Promise<StageRoomResult> {
  const message = acceptMessage(LEGACY_STAGE_ROOM_MESSAGE, job, deps);
  const bridgeDeps: LegacyBridgeDeps = {
    db: deps.db,
    stagingQueue: deps.stagingQueue,
    logger: deps.logger,
    clock: deps.clock,
    staging: {
      enabled: deps.config.stagingEnabled,
      dailyPurchaseCap: deps.config.dailyPurchaseCap,
      producer: deps.config.producer,
      providerModel: deps.config.providerModel,
      legacyAliasSunsetAt: deps.legacyAliasSunsetAt,
    },
  };
  const outcome: LegacyMaterialization = await materializeLegacyStagingMessage(bridgeDeps, message, {
    queueJobId: job.id ?? null,
  });
  switch (outcome.kind) {
    case 'materialized':
      return { kind: 'materialized', aiJobId: outcome.item.aiJobId, disposition: outcome.item.disposition };
    case 'deferred':
      return { kind: 'deferred', delayMs: DISABLED_RECHECK_MS };
    case 'rejected':
      throw new UnrecoverableError(`${outcome.code}: ${outcome.message}`);
  }
}
