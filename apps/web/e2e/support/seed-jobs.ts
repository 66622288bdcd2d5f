import { randomUUID } from 'node:crypto';
import type { E2eData } from '../../../../tools/stack/src/e2e-fixtures';

/**
 * A finished staging job written as the worker leaves it, without buying anything: `attempts`
 * bought predictions at `costMicrousd` each.
 */
export async function seedFinishedJob(
  data: E2eData,
  options: { propertyId: string; originalImageId: string; status: 'FAILED' | 'CANCELED'; errorCode?: string; attempts: number; costMicrousd: number | null },
): Promise<string> {
  const id = randomUUID();
  const finishedAt = new Date();
  const createdAt = new Date(finishedAt.getTime() - 95_000);
  await data.db.aiJob.create({
    data: {
      id,
      type: 'ROOM_STAGING',
      status: options.status,
      errorCode: options.errorCode ?? null,
      propertyId: options.propertyId,
      createdAt,
      startedAt: createdAt,
      ...(options.status === 'FAILED' ? { completedAt: finishedAt } : { canceledAt: finishedAt, cancelRequestedAt: finishedAt }),
      staging: {
        create: {
          originalImageId: options.originalImageId,
          propertyId: options.propertyId,
          canonicalRoomType: 'LIVING_ROOM',
          canonicalStyle: 'INDUSTRIAL',
          submittedStyle: 'INDUSTRIAL',
          providerModel: 'openai/gpt-image-2',
          promptVersion: 'e2e',
          prompt: 'e2e',
          quality: 'medium',
          aspectRatio: '1:1',
          outputFormat: 'jpeg',
          outputCompression: 92,
        },
      },
    },
  });
  for (let n = 1; n <= options.attempts; n += 1) {
    await data.db.aiProviderAttempt.create({
      data: {
        aiJobId: id,
        attemptNumber: n,
        status: 'FAILED',
        errorCode: options.errorCode ?? null,
        providerPredictionId: `e2e-${id}-${n}`,
        costMicrousd: options.costMicrousd,
        createdAt,
      },
    });
  }
  return id;
}
