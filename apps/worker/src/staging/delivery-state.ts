import type { Job } from 'bullmq';
import { buildMessage } from '@staging/services/queue-contract';
import { STAGING_MESSAGE } from '@staging/services/staging/staging-queue';
import type { TStagingJobPayload } from '@staging/services/staging/staging-queue';
import type { RunOutcome } from './staging-deps';

/**
 * Writes what a parked delivery learned (provider 429s in a row, a list walk that found nothing)
 * into the queue job, so the next delivery starts from it; nothing is written when it is unchanged.
 */
export async function saveDeliveryState(job: Job, message: TStagingJobPayload, outcome: RunOutcome): Promise<void> {
  const throttleCount = message.throttleCount ?? 0;
  const absenceSeen = message.absenceSeen ?? null;
  if (
    outcome.kind === 'wait' &&
    ((outcome.throttleCount ?? 0) !== throttleCount || (outcome.absenceSeen?.atMs ?? null) !== (absenceSeen?.atMs ?? null))
  ) {
    await job.updateData(
      buildMessage(STAGING_MESSAGE, {
        aiJobId: message.aiJobId,
        v: message.v,
        throttleCount: outcome.throttleCount ?? 0,
        ...(outcome.absenceSeen === undefined ? {} : { absenceSeen: outcome.absenceSeen }),
      }),
    );
  }
}
