import { DelayedError } from 'bullmq';
import type { Job } from 'bullmq';
import type { Alert } from '@staging/platform/error-tracker';
import { DESCRIPTION_MESSAGE } from '@staging/services/description/ai-queue';
import {
  DESCRIPTION_ERROR_CODES,
  failDescriptionJob,
  processDescriptionJob,
} from '@staging/services/description/process-description-job';
import type { DescriptionWorkerDeps } from '@staging/services/description/process-description-job';
import { acceptMessage } from '@staging/services/queue-contract';
import { handleStageRoomMessage } from '../legacy-bridge/stage-room-handler';
import type { StageRoomHandlerDeps } from '../legacy-bridge/stage-room-handler';

/**
 * A description delivery. A failure is retried by BullMQ; after the last attempt the ledger row
 * is failed and an alert raised.
 */
export function createDescriptionProcessor(deps: DescriptionWorkerDeps & { captureAlert: (alert: Alert) => void }) {
  const { db, generator, logger, clock, searchQueue } = deps;
  return async function processDescription(job: Job): Promise<void> {
    const { aiJobId } = acceptMessage(DESCRIPTION_MESSAGE, job, deps);
    try {
      // A property deleted before its description ran ends FAILED and is logged; that is no alert.
      await processDescriptionJob({ db, generator, logger, clock, searchQueue }, aiJobId);
    } catch (error) {
      const attempts = job.opts.attempts ?? 1;
      // The ledger row must not stay PROCESSING once BullMQ stops retrying.
      if (job.attemptsMade + 1 >= attempts) {
        await failDescriptionJob(
          { db, logger, clock },
          aiJobId,
          DESCRIPTION_ERROR_CODES.GENERATION_FAILED,
          error instanceof Error ? error.message : String(error),
        );
        deps.captureAlert({
          message: 'description job failed after its last attempt',
          level: 'error',
          tags: { jobId: aiJobId, errorCode: DESCRIPTION_ERROR_CODES.GENERATION_FAILED },
        });
      }
      throw error;
    }
  };
}

/** A legacy stage-room delivery: turned into a staging job, or parked while the kill switch is off. */
export function createStageRoomProcessor(deps: StageRoomHandlerDeps) {
  return async function processStageRoom(job: Job, token: string | undefined): Promise<void> {
    const result = await handleStageRoomMessage(deps, job);
    if (result.kind === 'materialized' || token === undefined) return;
    // Kill switch off: the message waits in the delayed set without using a BullMQ attempt.
    await job.moveToDelayed(Date.now() + result.delayMs, token);
    throw new DelayedError();
  };
}
