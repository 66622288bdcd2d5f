import { randomUUID } from 'node:crypto';
import { createStagingJob } from '@staging/db/testing/factories';
import { seedStagedVariant, type E2eData } from '@staging/stack/e2e-fixtures';

type Original = Parameters<typeof seedStagedVariant>[1]['original'];

/**
 * A finished staging job written as the worker leaves it, without buying anything: `attempts`
 * bought predictions at `costMicrousd` each (the last one succeeded for a SUCCESS job, which has
 * no result until one is attached, see {@link seedStagedJob}).
 */
export async function seedFinishedJob(
  data: E2eData,
  options: {
    propertyId: string;
    originalImageId: string;
    status: 'FAILED' | 'CANCELED' | 'SUCCESS';
    errorCode?: string;
    attempts: number;
    costMicrousd: number | null;
  },
): Promise<string> {
  const id = randomUUID();
  const finishedAt = new Date();
  const createdAt = new Date(finishedAt.getTime() - 95_000);
  await createStagingJob(data.db, {
    original: { id: options.originalImageId, propertyId: options.propertyId },
    job: {
      id,
      status: options.status,
      errorCode: options.errorCode ?? null,
      createdAt,
      startedAt: createdAt,
      ...(options.status === 'CANCELED' ? { canceledAt: finishedAt, cancelRequestedAt: finishedAt } : { completedAt: finishedAt }),
    },
    staging: { canonicalStyle: 'INDUSTRIAL' },
    attempts: Array.from({ length: options.attempts }, (_, index) => ({
      status: options.status === 'SUCCESS' && index === options.attempts - 1 ? 'SUCCEEDED' : 'FAILED',
      errorCode: options.errorCode ?? null,
      providerPredictionId: `e2e-${id}-${index + 1}`,
      costMicrousd: options.costMicrousd,
      createdAt,
    })),
  });
  return id;
}

/**
 * A succeeded job whose result was approved, and with `takenDown` later rejected, as the review
 * leaves it: the REJECTED event after the APPROVED one, and the result row gone.
 */
export async function seedStagedJob(
  data: E2eData,
  options: { original: Original; reviewerId: string; takenDown?: { reason: string }; attempts: number; costMicrousd: number },
): Promise<string> {
  const aiJobId = await seedFinishedJob(data, {
    propertyId: options.original.propertyId,
    originalImageId: options.original.id,
    status: 'SUCCESS',
    attempts: options.attempts,
    costMicrousd: options.costMicrousd,
  });
  const result = await seedStagedVariant(data, {
    original: options.original,
    canonicalStyle: 'INDUSTRIAL',
    reviewStatus: 'APPROVED',
    reviewedByUserId: options.reviewerId,
    aiJobId,
  });
  await data.db.aiRoomStagingJob.update({ where: { aiJobId }, data: { resultImageId: result.id } });
  if (options.takenDown !== undefined) {
    await data.db.propertyImageReviewEvent.create({
      data: { imageId: result.id, aiJobId, actorUserId: options.reviewerId, kind: 'REJECTED', reason: options.takenDown.reason },
    });
    await data.db.propertyImage.delete({ where: { id: result.id } });
  }
  return aiJobId;
}
